/**
 * Boleto de cobrança numbers (FEBRABAN layout). The 44-digit barcode is
 * bank(3) currency "9"(1) general-check-digit(1) due-factor(4) amount(10) free-field(25); the general
 * check digit is modulo 11. The 47-digit linha digitável regroups it into five fields, the first three
 * closed by a modulo-10 check digit.
 */
const BASE_DATE = Date.UTC(1997, 9, 7); // 1997-10-07: factor 0
const DAY_MS = 86_400_000;
export const MAX_BOLETO_AMOUNT = 99_999_999_99;

/**
 * Days from 1997-10-07 to the due date. Factor 9999 fell on 2025-02-21; from 2025-02-22 the count
 * restarts at 1000 and rolls over every 9000 days (FEBRABAN).
 */
export function dueDateFactor(dueDate: string): string {
  const [year, month, day] = dueDate.split('-').map(Number);
  const days = Math.round((Date.UTC(year, month - 1, day) - BASE_DATE) / DAY_MS);
  if (days < 1000) throw new Error('due date before the boleto factor range');
  const factor = days <= 9999 ? days : ((days - 10_000) % 9000) + 1000;
  return String(factor).padStart(4, '0');
}

export function modulo10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

export function modulo11(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

export interface BoletoNumbers {
  barCode: string;
  digitableLine: string;
}

export function buildBoleto(input: { bankCode: string; dueDate: string; amount: number; freeField: string }): BoletoNumbers {
  if (!/^\d{3}$/.test(input.bankCode)) throw new Error('bank code must be 3 digits');
  if (!/^\d{25}$/.test(input.freeField)) throw new Error('free field must be 25 digits');
  if (!Number.isInteger(input.amount) || input.amount < 0 || input.amount > MAX_BOLETO_AMOUNT) {
    throw new Error('boleto amount out of range');
  }
  const head = `${input.bankCode}9`;
  const tail = `${dueDateFactor(input.dueDate)}${String(input.amount).padStart(10, '0')}${input.freeField}`;
  const barCode = `${head}${modulo11(head + tail)}${tail}`;
  return { barCode, digitableLine: digitableLineOf(barCode) };
}

export function digitableLineOf(barCode: string): string {
  const free = barCode.slice(19);
  const first = `${barCode.slice(0, 4)}${free.slice(0, 5)}`;
  const second = free.slice(5, 15);
  const third = free.slice(15, 25);
  return (
    `${first}${modulo10(first)}` +
    `${second}${modulo10(second)}` +
    `${third}${modulo10(third)}` +
    barCode[4] +
    barCode.slice(5, 19)
  );
}

/** Rebuilds the barcode from a linha digitável and checks every check digit (for checks and tests). */
export function isValidDigitableLine(line: string): boolean {
  if (!/^\d{47}$/.test(line)) return false;
  const fields = [line.slice(0, 10), line.slice(10, 21), line.slice(21, 32)];
  if (!fields.every((value) => modulo10(value.slice(0, -1)) === Number(value.slice(-1)))) return false;
  const barCode = `${line.slice(0, 4)}${line[32]}${line.slice(33, 47)}${line.slice(4, 9)}${line.slice(10, 20)}${line.slice(21, 31)}`;
  return modulo11(barCode.slice(0, 4) + barCode.slice(5)) === Number(barCode[4]);
}
