import { buildBrCode, BrCodeInput, crc16CcittFalse, parseEmv } from './pix-br-code';

/**
 * Pix BR Code (API.md §9.3; Banco Central's "Manual de Padrões para Iniciação do Pix", EMV QRCPS-MPM).
 * Reference values:
 *  - the manual's example payload (static QR of key 123e4567-e12b-12d1-a456-426655440000, "Fulano de Tal",
 *    BRASILIA, txid ***) closes with CRC 1D3D;
 *  - "123456789" is the standard check input of CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): 29B1.
 */
const MANUAL_PAYLOAD =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304';
const PIX_KEY = '123e4567-e12b-12d1-a456-426655440000';

const input = (fields: Partial<BrCodeInput> = {}): BrCodeInput => ({
  pixKey: PIX_KEY,
  amount: 12345,
  merchantName: 'Padaria Central',
  merchantCity: 'SAO PAULO',
  txid: 'PIXCHAR01JD2Z3M4N5P6Q7R8S',
  ...fields,
});

describe('crc16CcittFalse', () => {
  it('gives 1D3D for the example payload of the Banco Central manual', () => {
    expect(crc16CcittFalse(MANUAL_PAYLOAD)).toBe('1D3D');
  });

  it('gives the standard check value 29B1 for "123456789"', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
  });

  it('gives FFFF (the initial value) for the empty string and B915 for "A" (published CRC-CCITT 0xFFFF value)', () => {
    expect(crc16CcittFalse('')).toBe('FFFF');
    expect(crc16CcittFalse('A')).toBe('B915');
  });

  it('changes when one character of the payload changes', () => {
    expect(crc16CcittFalse(MANUAL_PAYLOAD.replace('Fulano', 'Fulana'))).not.toBe('1D3D');
  });
});

describe('parseEmv', () => {
  it('reads the manual example back field by field', () => {
    const fields = parseEmv(`${MANUAL_PAYLOAD}1D3D`);
    expect([...fields.keys()]).toEqual(['00', '26', '52', '53', '58', '59', '60', '62', '63']);
    expect(fields.get('00')).toBe('01');
    expect(fields.get('26')).toBe(`0014br.gov.bcb.pix0136${PIX_KEY}`);
    expect(fields.get('59')).toBe('Fulano de Tal');
    expect(fields.get('60')).toBe('BRASILIA');
    expect(fields.get('62')).toBe('0503***');
    expect(fields.get('63')).toBe('1D3D');
  });

  it('rejects a payload whose field id is not two digits', () => {
    expect(() => parseEmv('0002010X')).toThrow();
  });
});

describe('buildBrCode', () => {
  it('builds a payload whose fields carry the charge (amount 12345 → "123.45")', () => {
    const payload = buildBrCode(input());
    const fields = parseEmv(payload);
    expect([...fields.keys()]).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(fields.get('00')).toBe('01');
    expect(fields.get('52')).toBe('0000');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('123.45');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe('Padaria Central');
    expect(fields.get('60')).toBe('SAO PAULO');

    const account = fields.get('26') as string;
    expect(account.startsWith('0014br.gov.bcb.pix')).toBe(true);
    expect(account).toBe(`0014br.gov.bcb.pix0136${PIX_KEY}`);
    expect(parseEmv(account).get('01')).toBe(PIX_KEY);

    expect(fields.get('62')).toBe('0525PIXCHAR01JD2Z3M4N5P6Q7R8S');
    expect(parseEmv(fields.get('62') as string).get('05')).toBe('PIXCHAR01JD2Z3M4N5P6Q7R8S');
  });

  it('closes with field 63 (length 04) holding the CRC of everything before the CRC itself', () => {
    const payload = buildBrCode(input());
    expect(payload.slice(-8, -4)).toBe('6304');
    expect(payload.slice(-4)).toMatch(/^[0-9A-F]{4}$/);
    expect(payload.slice(-4)).toBe(crc16CcittFalse(payload.slice(0, -4)));
  });

  it('writes the whole payload field by field, byte for byte', () => {
    const payload = buildBrCode(input({ amount: 500, merchantName: 'Loja', merchantCity: 'RIO', txid: 'abc123' }));
    expect(payload.slice(0, -4)).toBe(
      '000201' +
        '010212' +
        `2658${'0014br.gov.bcb.pix'}${'0136'}${PIX_KEY}` +
        '52040000' +
        '5303986' +
        '54045.00' +
        '5802BR' +
        '5904Loja' +
        '6003RIO' +
        '62100506abc123' +
        '6304',
    );
  });

  it.each([
    [1, '0.01'],
    [5, '0.05'],
    [100, '1.00'],
    [1005, '10.05'],
    [12345, '123.45'],
    [99_999_999_99, '99999999.99'],
    [100_000_000_000, '1000000000.00'],
  ])('formats %p centavos as %p', (amount, text) => {
    expect(parseEmv(buildBrCode(input({ amount }))).get('54')).toBe(text);
  });

  it('writes the merchant name in plain ASCII, without accents, at most 25 characters', () => {
    const fields = parseEmv(buildBrCode(input({ merchantName: 'José da Silva Comércio de Alimentos LTDA', merchantCity: 'São Paulo' })));
    expect(fields.get('59')).toBe('Jose da Silva Comercio de');
    expect(fields.get('60')).toBe('Sao Paulo');
    const name = fields.get('59') as string;
    expect(name.length).toBeLessThanOrEqual(25);
    expect(name).toMatch(/^[\x20-\x7e]+$/);
  });

  it('replaces characters outside the EMV set by spaces and never leaves a name empty', () => {
    expect(parseEmv(buildBrCode(input({ merchantName: "Ana's Café & Bar" }))).get('59')).toBe('Ana s Cafe   Bar');
    expect(parseEmv(buildBrCode(input({ merchantName: '★★★' }))).get('59')).toBe('NA');
  });

  const DESCRIPTION = 'Pedido nº 42 — entrega em três dias úteis, sem custo';

  it('puts a description in the merchant account (26/02), ASCII, at most 40 characters with a short key', () => {
    // A phone key "+5511999998888" (14): 26 = 0014br.gov.bcb.pix (18) + 0114… (18) + 0240… (44) = 80 ≤ 99.
    const phoneKey = '+5511999998888';
    const account = parseEmv(parseEmv(buildBrCode(input({ pixKey: phoneKey, description: DESCRIPTION }))).get('26') as string);
    expect(account.get('00')).toBe('br.gov.bcb.pix');
    expect(account.get('01')).toBe(phoneKey);
    expect(account.get('02')).toBe('Pedido n  42   entrega em tres dias utei');
  });

  it('shortens the description to what field 26 has room for with a 36-character EVP key (37 characters)', () => {
    // 99 − 18 (GUI) − 40 (0136 + key) − 4 (02 + length) = 37.
    const payload = buildBrCode(input({ description: DESCRIPTION }));
    const fields = parseEmv(payload);
    const account = fields.get('26') as string;
    expect(account.length).toBe(99);
    expect(parseEmv(account).get('01')).toBe(PIX_KEY);
    expect(parseEmv(account).get('02')).toBe('Pedido n  42   entrega em tres dias u');
    expect(payload.slice(-4)).toBe(crc16CcittFalse(payload.slice(0, -4)));
  });

  it('leaves the description out when there is none', () => {
    const account = parseEmv(parseEmv(buildBrCode(input())).get('26') as string);
    expect([...account.keys()]).toEqual(['00', '01']);
  });

  it.each([
    ['a hyphen', 'abc-123'],
    ['an underscore', 'pix_char_01'],
    ['a space', 'abc 123'],
    ['no character', ''],
    ['26 characters', 'A'.repeat(26)],
    ['the *** of a static code', '***'],
  ])('rejects a txid with %s', (_label, txid) => {
    expect(() => buildBrCode(input({ txid }))).toThrow(/txid/);
  });

  it('accepts a txid of exactly 25 letters and digits', () => {
    expect(parseEmv(parseEmv(buildBrCode(input({ txid: 'Z'.repeat(25) }))).get('62') as string).get('05')).toBe('Z'.repeat(25));
  });
});
