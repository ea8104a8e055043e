import { isValidCnpj, isValidCpf, normalizeTaxId } from './tax-id';

/**
 * CPF / CNPJ (API.md §8.1). Every valid example below was checked by hand:
 *  - CPF 529.982.247-25: Σ(d·w, w=10..2) = 295, 295·10 mod 11 = 2; Σ(d·w, w=11..2) = 347, 3470 mod 11 = 5.
 *  - CNPJ 12.ABC.345/01DE-35 (Receita Federal's published alphanumeric example, A=17 … E=21):
 *    first sum 459, 459 mod 11 = 8 → 11 − 8 = 3; second sum 424, 424 mod 11 = 6 → 11 − 6 = 5.
 *  - CNPJ 11.222.333/0001-81: first sum 102, mod 11 = 3 → 8; second sum 120, mod 11 = 10 → 1.
 */
describe('normalizeTaxId — CPF', () => {
  it.each([
    ['529.982.247-25', '52998224725'],
    ['52998224725', '52998224725'],
    ['111.444.777-35', '11144477735'],
    ['11144477735', '11144477735'],
    [' 111 444 777 35 ', '11144477735'],
  ])('accepts %p as CPF %p', (input, value) => {
    expect(normalizeTaxId(input)).toEqual({ kind: 'CPF', value });
  });

  it.each(['529.982.247-26', '529.982.247-15', '111.444.777-36', '111.444.777-25'])('rejects %p (wrong check digit)', (input) => {
    expect(normalizeTaxId(input)).toBeNull();
  });

  it.each(['111.111.111-11', '000.000.000-00', '99999999999'])('rejects the repeated-digit sequence %p', (input) => {
    expect(normalizeTaxId(input)).toBeNull();
  });

  it.each(['5299822472', '529982247250', '1234', '', '529.982.247-2X', 'abcdefghijk'])('rejects %p (wrong length or characters)', (input) => {
    expect(normalizeTaxId(input)).toBeNull();
  });

  it('isValidCpf wants bare digits', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('529.982.247-25')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
  });
});

describe('normalizeTaxId — CNPJ', () => {
  it.each([
    ['11.222.333/0001-81', '11222333000181'],
    ['11222333000181', '11222333000181'],
    ['00.000.000/0001-91', '00000000000191'],
  ])('accepts the numeric CNPJ %p', (input, value) => {
    expect(normalizeTaxId(input)).toEqual({ kind: 'CNPJ', value });
  });

  it.each([
    ['12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['12ABC34501DE35', '12ABC34501DE35'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    ['12abc34501de35', '12ABC34501DE35'],
  ])('accepts the alphanumeric CNPJ %p and normalises it to %p', (input, value) => {
    expect(normalizeTaxId(input)).toEqual({ kind: 'CNPJ', value });
  });

  it.each(['11.222.333/0001-82', '11.222.333/0001-71', '12.ABC.345/01DE-36', '12.ABC.345/01DE-45', '12.ABD.345/01DE-35'])(
    'rejects %p (wrong check digits)',
    (input) => {
      expect(normalizeTaxId(input)).toBeNull();
    },
  );

  it.each(['12.ABC.345/01DE-3A', '12.ABC.345/01DE-AB', '11.222.333/0001-8B'])('rejects %p (letters where the check digits go)', (input) => {
    expect(normalizeTaxId(input)).toBeNull();
  });

  it.each(['00000000000000', '11.111.111/1111-11'])('rejects the repeated-digit sequence %p', (input) => {
    expect(normalizeTaxId(input)).toBeNull();
  });

  it.each(['1122233300018', '112223330001811', '12.AB*.345/01DE-35', '12.ÁBC.345/01DE-35'])('rejects %p (wrong length or characters)', (input) => {
    expect(normalizeTaxId(input)).toBeNull();
  });

  it('isValidCnpj wants the normal form (upper case, no punctuation)', () => {
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12abc34501de35')).toBe(false);
    expect(isValidCnpj('11.222.333/0001-81')).toBe(false);
  });
});
