/**
 * Sandbox cards (API.md §10.3). The outcome is decided at creation from the number alone; a raw card
 * number is never stored or logged, only its brand and last four digits.
 */
export type CardOutcome =
  | { approved: true; openDispute: boolean }
  | { approved: false; reason: 'generic_decline' | 'expired_card' | 'incorrect_cvc' };

export const DISPUTE_CARD = '4000000000000259';

export function passesLuhn(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i -= 1) {
    let digit = Number(number[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export function sandboxOutcome(number: string): CardOutcome {
  if (number === DISPUTE_CARD) return { approved: true, openDispute: true };
  if (number.endsWith('0002')) return { approved: false, reason: 'generic_decline' };
  if (number.endsWith('0069')) return { approved: false, reason: 'expired_card' };
  if (number.endsWith('0127')) return { approved: false, reason: 'incorrect_cvc' };
  return { approved: true, openDispute: false };
}

export function cardBrand(number: string): string {
  // Elo's ranges sit inside Visa's "4" and must be matched before it.
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(number)) return 'ELO';
  if (/^4/.test(number)) return 'VISA';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'MASTERCARD';
  if (/^3[47]/.test(number)) return 'AMEX';
  if (/^(606282|3841)/.test(number)) return 'HIPERCARD';
  return 'UNKNOWN';
}
