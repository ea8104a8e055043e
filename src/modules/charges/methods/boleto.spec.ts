import { buildBoleto, digitableLineOf, dueDateFactor, isValidDigitableLine, MAX_BOLETO_AMOUNT, modulo10, modulo11 } from './boleto';

/**
 * Boleto numbers (API.md §9.3, FEBRABAN layout). Reference: the widely published Banco do Brasil example
 *   barcode         00193373700000001000500940144816060680935031
 *   linha digitável 00190.50095 40144.816069 06809.350314 3 37370000000100
 * (bank 001, currency 9, general check digit 3, factor 3737 = 2007-12-31, R$ 1,00).
 * Every other expected value below was computed by hand; the sums are in the comments.
 */
const EXAMPLE_BARCODE = '00193373700000001000500940144816060680935031';
const EXAMPLE_LINE = '00190500954014481606906809350314337370000000100';

describe('modulo10 (fields of the linha digitável)', () => {
  it.each([
    // 001905009, from the right ×2,×1,…: 18→9, 0, 0, 5, 0, 9, 2, 0, 0 = 25 → 10 − 5 = 5
    ['001905009', 5],
    // 4014481606 (field 2 of the example): 12→3, 0, 12→3, 1, 16→7, 4, 8, 1, 0, 4 = 31 → 9
    ['4014481606', 9],
    // 0680935031 (field 3): 2, 3, 0, 5, 6, 9, 0, 8, 12→3, 0 = 36 → 4
    ['0680935031', 4],
    // 5 ×2 = 10 → 1 → 10 − 1 = 9
    ['5', 9],
    // 123: 6 + 2 + 2 = 10 → 0
    ['123', 0],
    // all zeros: sum 0 → 0
    ['0000000000', 0],
    // 7992739871: the Luhn textbook example, check digit 3
    ['7992739871', 3],
  ])('modulo10(%p) = %p', (digits, expected) => {
    expect(modulo10(digits)).toBe(expected);
  });
});

describe('modulo11 (general check digit of the barcode)', () => {
  it.each([
    // 2 × 2 = 4 → 11 − 4 = 7
    ['2', 7],
    // 2×2 + 1×3 = 7 → 11 − 7 = 4
    ['12', 4],
    // weights run 2..9 from the right, then start again: a 1 in 8th place weighs 9 → 11 − 9 = 2
    ['10000000', 2],
    // …in 9th place it weighs 2 again → 11 − 2 = 9
    ['100000000', 9],
    // …in 10th place 3 → 11 − 3 = 8
    ['1000000000', 8],
    // sum 0 → 11 − 0 = 11 → 1
    ['0', 1],
    // 6 × 2 = 12, 12 mod 11 = 1 → 11 − 1 = 10 → 1
    ['6', 1],
    // the example barcode without its check digit: 3
    ['0019373700000001000500940144816060680935031', 3],
  ])('modulo11(%p) = %p', (digits, expected) => {
    expect(modulo11(digits)).toBe(expected);
  });
});

describe('dueDateFactor', () => {
  it.each([
    ['2000-07-03', '1000'], // 1000 days after 1997-10-07
    ['2000-07-04', '1001'],
    ['2007-12-31', '3737'], // the published example
    ['2025-02-21', '9999'], // last day of the first cycle
    ['2025-02-22', '1000'], // FEBRABAN reset
    ['2025-02-23', '1001'],
    // 2025-02-22 + 5 years (1826 days, 2028 is leap) = 2030-02-22; 38 days earlier → 1000 + 1788
    ['2030-01-15', '2788'],
    // 9000 days after 2025-02-22 the count rolls over again: + 24 years (8766 days, 6 leap) = 2049-02-22,
    // + 234 days = 2049-10-14
    ['2049-10-13', '9999'],
    ['2049-10-14', '1000'],
  ])('%s → %s', (date, factor) => {
    expect(dueDateFactor(date)).toBe(factor);
  });

  it('refuses a date before the factor range (before 2000-07-03)', () => {
    expect(() => dueDateFactor('2000-07-02')).toThrow();
    expect(() => dueDateFactor('1997-10-07')).toThrow();
  });
});

describe('digitableLineOf and isValidDigitableLine', () => {
  it('turns the published barcode into the published linha digitável', () => {
    expect(digitableLineOf(EXAMPLE_BARCODE)).toBe(EXAMPLE_LINE);
  });

  it('accepts the published linha digitável', () => {
    expect(isValidDigitableLine(EXAMPLE_LINE)).toBe(true);
  });

  it('refuses every single-digit change of the published line, at each of the 47 positions', () => {
    const accepted: string[] = [];
    for (let position = 0; position < 47; position += 1) {
      for (let digit = 0; digit <= 9; digit += 1) {
        if (String(digit) === EXAMPLE_LINE[position]) continue;
        const changed = `${EXAMPLE_LINE.slice(0, position)}${digit}${EXAMPLE_LINE.slice(position + 1)}`;
        if (isValidDigitableLine(changed)) accepted.push(`${position}:${digit}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('refuses a wrong general check digit even when the three field check digits are right', () => {
    // position 32 is the barcode's check digit 3; 4 keeps fields 1–3 intact
    expect(isValidDigitableLine(`${EXAMPLE_LINE.slice(0, 32)}4${EXAMPLE_LINE.slice(33)}`)).toBe(false);
  });

  it.each([
    ['46 digits', EXAMPLE_LINE.slice(1)],
    ['48 digits', `${EXAMPLE_LINE}0`],
    ['punctuation', '00190.50095 40144.816069 06809.350314 3 37370000000100'],
    ['a letter', `${EXAMPLE_LINE.slice(0, 46)}X`],
    ['the barcode instead of the line', EXAMPLE_BARCODE],
  ])('refuses a line with %s', (_label, line) => {
    expect(isValidDigitableLine(line)).toBe(false);
  });
});

describe('buildBoleto', () => {
  it('rebuilds the published example from its parts', () => {
    expect(
      buildBoleto({ bankCode: '001', dueDate: '2007-12-31', amount: 100, freeField: '0500940144816060680935031' }),
    ).toEqual({ barCode: EXAMPLE_BARCODE, digitableLine: EXAMPLE_LINE });
  });

  it('lays out a new boleto: bank, currency 9, check digit, factor, amount, free field', () => {
    const boleto = buildBoleto({ bankCode: '237', dueDate: '2030-01-15', amount: 123456, freeField: '1234567890123456789012345' });
    // Barcode without its check digit: 2379 2788 0000123456 1234567890123456789012345 → weighted sum 871,
    // 871 mod 11 = 2 → 11 − 2 = 9.
    expect(boleto.barCode).toBe('23799278800001234561234567890123456789012345');
    expect(boleto.barCode).toHaveLength(44);
    expect(boleto.barCode.slice(0, 3)).toBe('237');
    expect(boleto.barCode[3]).toBe('9');
    expect(boleto.barCode[4]).toBe('9');
    expect(boleto.barCode.slice(5, 9)).toBe('2788');
    expect(boleto.barCode.slice(9, 19)).toBe('0000123456');
    expect(boleto.barCode.slice(19)).toBe('1234567890123456789012345');
    // Fields: 237912345 (sum 36 → 4), 6789012345 (sum 43 → 7), 6789012345 (→ 7), DV 9, factor + amount.
    expect(boleto.digitableLine).toBe('23791234546789012345767890123457927880000123456');
    expect(boleto.digitableLine).toHaveLength(47);
    expect(isValidDigitableLine(boleto.digitableLine)).toBe(true);
  });

  it('writes the amount as the ten digits after the factor, in the barcode and at the end of the line', () => {
    const boleto = buildBoleto({ bankCode: '999', dueDate: '2026-12-01', amount: 4990, freeField: '0'.repeat(25) });
    expect(boleto.barCode.slice(9, 19)).toBe('0000004990');
    expect(boleto.digitableLine.slice(-10)).toBe('0000004990');
    expect(isValidDigitableLine(boleto.digitableLine)).toBe(true);
  });

  it('takes the largest amount a boleto can carry and refuses one centavo more', () => {
    expect(MAX_BOLETO_AMOUNT).toBe(9_999_999_999);
    const boleto = buildBoleto({ bankCode: '999', dueDate: '2026-12-01', amount: 9_999_999_999, freeField: '1'.repeat(25) });
    expect(boleto.barCode.slice(9, 19)).toBe('9999999999');
    expect(() => buildBoleto({ bankCode: '999', dueDate: '2026-12-01', amount: 10_000_000_000, freeField: '1'.repeat(25) })).toThrow();
  });

  it.each([
    ['a bank code of 2 digits', { bankCode: '01' }],
    ['a free field of 24 digits', { freeField: '1'.repeat(24) }],
    ['a free field with a letter', { freeField: `${'1'.repeat(24)}A` }],
    ['a negative amount', { amount: -1 }],
    ['a fractional amount', { amount: 10.5 }],
    ['a due date before 2000-07-03', { dueDate: '2000-01-01' }],
  ])('refuses %s', (_label, fields) => {
    expect(() => buildBoleto({ bankCode: '999', dueDate: '2026-12-01', amount: 1000, freeField: '1'.repeat(25), ...fields })).toThrow();
  });
});
