import { cardBrand, DISPUTE_CARD, passesLuhn, sandboxOutcome } from './test-cards';

/**
 * Sandbox cards (API.md §10.3). Luhn sums worked by hand:
 *  - 4242424242424242: doubled 4s give 8 each (8 × 8 = 64), the 2s add 8 × 2 = 16 → 80, a multiple of 10;
 *  - 4242424242424241: the last digit drops by 1 → 79, not a multiple of 10.
 */
describe('passesLuhn', () => {
  it.each([
    '4242424242424242',
    '4000000000000002',
    '4000000000000069',
    '4000000000000127',
    '4000000000000259',
    '5555555555554444',
    '378282246310005', // 15 digits (Amex)
    '6362970000457013',
    '000000000000', // 12 zeros: sum 0
    // 19 digits: 424242424242424242 + 8; right to left 8, then nine (2×2 + 4) = 72 → 80
    '4242424242424242428',
  ])('accepts %s', (number) => {
    expect(passesLuhn(number)).toBe(true);
  });

  it.each([
    ['the last digit changed', '4242424242424241'],
    ['two adjacent digits swapped', '4242424242424224'],
    ['a single digit changed', '4000000000000003'],
  ])('refuses a number with %s', (_label, number) => {
    expect(passesLuhn(number)).toBe(false);
  });

  it.each([
    ['11 digits (even with a valid Luhn sum)', '79927398713'],
    ['20 digits', '42424242424242424242'],
    ['spaces', '4242 4242 4242 4242'],
    ['dashes', '4242-4242-4242-4242'],
    ['a letter', '424242424242424X'],
    ['nothing', ''],
  ])('refuses %s', (_label, number) => {
    expect(passesLuhn(number)).toBe(false);
  });
});

describe('sandboxOutcome', () => {
  it('approves 4242424242424242 without a dispute', () => {
    expect(sandboxOutcome('4242424242424242')).toEqual({ approved: true, openDispute: false });
  });

  it.each([
    ['4000000000000002', 'generic_decline'],
    ['4000000000000069', 'expired_card'],
    ['4000000000000127', 'incorrect_cvc'],
    // any number with those endings, whatever the brand
    ['5555555555570002', 'generic_decline'],
    ['5555555555570069', 'expired_card'],
  ])('declines %s with reason %s', (number, reason) => {
    expect(passesLuhn(number)).toBe(true);
    expect(sandboxOutcome(number)).toEqual({ approved: false, reason });
  });

  it('approves 4000000000000259 and asks for a dispute', () => {
    expect(DISPUTE_CARD).toBe('4000000000000259');
    expect(sandboxOutcome('4000000000000259')).toEqual({ approved: true, openDispute: true });
  });

  it('approves any other valid number (0259 ending on another number included) without a dispute', () => {
    expect(sandboxOutcome('5555555555554444')).toEqual({ approved: true, openDispute: false });
    expect(sandboxOutcome('4000000000000010')).toEqual({ approved: true, openDispute: false });
    expect(sandboxOutcome('5555555555550259')).toEqual({ approved: true, openDispute: false });
  });
});

describe('cardBrand', () => {
  it.each([
    ['4242424242424242', 'VISA'],
    ['4000000000000002', 'VISA'],
    ['4111111111111111', 'VISA'],
    ['5555555555554444', 'MASTERCARD'],
    ['5105105105105100', 'MASTERCARD'],
    ['2223003122003222', 'MASTERCARD'], // 2-series
    ['2720990000000007', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['371449635398431', 'AMEX'],
    ['6362970000457013', 'ELO'],
    ['5066990000000002', 'ELO'],
    ['4011780000000006', 'ELO'], // Elo range inside Visa's 4
    ['4514160000000003', 'ELO'],
    ['6062825624254001', 'HIPERCARD'],
    ['3841000000000007', 'HIPERCARD'],
    ['6011000000000004', 'UNKNOWN'], // Discover: not sold here
    ['2721000000000000', 'UNKNOWN'], // just past Mastercard's 2-series
  ])('%s is %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });
});
