/**
 * Brazilian taxpayer ids (API.md §8.1): CPF (11 digits) and CNPJ (14 chars: 12 alphanumeric, as the
 * 2026 alphanumeric CNPJ allows, then 2 check digits). Punctuation is accepted; the normal form is the
 * bare digits and upper-case letters.
 */
export type TaxIdKind = 'CPF' | 'CNPJ';

export interface NormalizedTaxId {
  kind: TaxIdKind;
  value: string;
}

const PUNCTUATION = /[\s.\-/]/g;

export function normalizeTaxId(input: string): NormalizedTaxId | null {
  const bare = input.replace(PUNCTUATION, '').toUpperCase();
  if (/^\d{11}$/.test(bare)) return isValidCpf(bare) ? { kind: 'CPF', value: bare } : null;
  if (/^[0-9A-Z]{12}\d{2}$/.test(bare)) return isValidCnpj(bare) ? { kind: 'CNPJ', value: bare } : null;
  return null;
}

/** Digits of a CPF, all check digits verified; repeated-digit sequences (111.111.111-11) are refused. */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const checkDigit = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i += 1) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return checkDigit(9) === Number(digits[9]) && checkDigit(10) === Number(digits[10]);
}

/**
 * CNPJ, numeric or alphanumeric: each character counts as its ASCII code minus 48 (so digits keep
 * their value and A = 17), weighted 2..9 from the right, modulo 11 (Receita Federal's rule of 2026).
 */
export function isValidCnpj(value: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value) || /^(\d)\1{13}$/.test(value)) return false;
  const checkDigit = (length: number) => {
    let sum = 0;
    let weight = 2;
    for (let i = length - 1; i >= 0; i -= 1) {
      sum += (value.charCodeAt(i) - 48) * weight;
      weight = weight === 9 ? 2 : weight + 1;
    }
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return checkDigit(12) === Number(value[12]) && checkDigit(13) === Number(value[13]);
}
