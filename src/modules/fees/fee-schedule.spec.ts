import { DomainError } from '../../common/errors/domain-error';
import { calculateFee, percentOf } from './fee-schedule';

/**
 * API.md §7. Every expected value below is worked out by hand (shown in the comments), never with the
 * formula under test.
 */
describe('percentOf (amount × bps / 10000, rounded half up)', () => {
  it.each([
    // [amount, bps, exact value, rounded]
    [100, 350, '3.5', 4], // exactly .5 rounds up
    [300, 350, '10.5', 11],
    [1100, 350, '38.5', 39],
    [214, 350, '7.49', 7], // just below .5 rounds down
    [186, 350, '6.51', 7], // just above .5 rounds up
    [10_000, 350, '350', 350],
    [2012, 400, '80.48', 80],
    [2013, 400, '80.52', 81],
    [7100, 450, '319.5', 320],
    [7011, 450, '315.495', 315],
    [12_100, 450, '544.5', 545],
    [1, 5000, '0.5', 1],
    [1, 4999, '0.4999', 0],
    [3, 5000, '1.5', 2],
    [12_345, 0, '0', 0],
    [100_000_000_000, 450, '4500000000', 4_500_000_000],
    [99_999_999_999, 450, '4499999999.955', 4_500_000_000],
  ])('percentOf(%d, %d) = %s → %d', (amount, bps, _exact, expected) => {
    expect(percentOf(amount, bps)).toBe(expected);
  });
});

describe('calculateFee', () => {
  const belowMinimum = (run: () => unknown, minimum: number) => {
    let caught: unknown;
    try {
      run();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DomainError);
    const error = caught as DomainError;
    expect(error.code).toBe('AMOUNT_BELOW_MINIMUM');
    expect(error.details?.[0]).toMatchObject({ field: 'amount', minimum });
  };

  describe('PIX: 80 flat, minimum 100', () => {
    it('charges 80 at the minimum', () => {
      expect(calculateFee(100, 'PIX')).toEqual({
        amount: 100,
        method: 'PIX',
        installments: 1,
        fee: 80,
        netAmount: 20,
        rate: { percentBasisPoints: 0, fixed: 80 },
      });
    });

    it('charges the same 80 on a large amount', () => {
      expect(calculateFee(1_000_000, 'PIX')).toMatchObject({ fee: 80, netAmount: 999_920 });
    });

    it('rejects 99', () => belowMinimum(() => calculateFee(99, 'PIX'), 100));
    it('rejects 1', () => belowMinimum(() => calculateFee(1, 'PIX'), 100));
  });

  describe('BOLETO: 250 flat, minimum 300', () => {
    it('charges 250 at the minimum', () => {
      expect(calculateFee(300, 'BOLETO')).toEqual({
        amount: 300,
        method: 'BOLETO',
        installments: 1,
        fee: 250,
        netAmount: 50,
        rate: { percentBasisPoints: 0, fixed: 250 },
      });
    });

    it('charges 250 on 10 000', () => {
      expect(calculateFee(10_000, 'BOLETO')).toMatchObject({ fee: 250, netAmount: 9750 });
    });

    it('rejects 299', () => belowMinimum(() => calculateFee(299, 'BOLETO'), 300));
  });

  describe('CARD 1x: 3.50 % + 60, minimum 100', () => {
    it('defaults to 1 installment', () => {
      expect(calculateFee(10_000, 'CARD')).toEqual({
        amount: 10_000,
        method: 'CARD',
        installments: 1,
        fee: 410, // 350 + 60
        netAmount: 9590,
        rate: { percentBasisPoints: 350, fixed: 60 },
      });
    });

    it.each([
      // [amount, fee, netAmount]
      [100, 64, 36], // 3.5 → 4, + 60
      [186, 67, 119], // 6.51 → 7
      [199, 67, 132], // 6.965 → 7
      [214, 67, 147], // 7.49 → 7
      [300, 71, 229], // 10.5 → 11
      [1100, 99, 1001], // 38.5 → 39
    ])('amount %d → fee %d, net %d', (amount, fee, netAmount) => {
      expect(calculateFee(amount, 'CARD', 1)).toMatchObject({ amount, fee, netAmount, installments: 1 });
    });

    it('rejects 99', () => belowMinimum(() => calculateFee(99, 'CARD', 1), 100));
  });

  describe('CARD 2–6x: 4.00 % + 60, minimum 1000 per installment', () => {
    it('2x at its minimum of 2000: 80 + 60', () => {
      expect(calculateFee(2000, 'CARD', 2)).toEqual({
        amount: 2000,
        method: 'CARD',
        installments: 2,
        fee: 140,
        netAmount: 1860,
        rate: { percentBasisPoints: 400, fixed: 60 },
      });
    });

    it('rejects 1999 in 2x', () => belowMinimum(() => calculateFee(1999, 'CARD', 2), 2000));

    it('rounds 80.48 down and 80.52 up', () => {
      expect(calculateFee(2012, 'CARD', 2)).toMatchObject({ fee: 140, netAmount: 1872 });
      expect(calculateFee(2013, 'CARD', 2)).toMatchObject({ fee: 141, netAmount: 1872 });
    });

    it('6x at its minimum of 6000: 240 + 60', () => {
      expect(calculateFee(6000, 'CARD', 6)).toEqual({
        amount: 6000,
        method: 'CARD',
        installments: 6,
        fee: 300,
        netAmount: 5700,
        rate: { percentBasisPoints: 400, fixed: 60 },
      });
    });

    it('rejects 5999 in 6x', () => belowMinimum(() => calculateFee(5999, 'CARD', 6), 6000));

    it('accepts in 1x an amount that 2x refuses', () => {
      expect(calculateFee(1500, 'CARD', 1)).toMatchObject({ fee: 113 }); // 52.5 → 53, + 60
      belowMinimum(() => calculateFee(1500, 'CARD', 2), 2000);
    });
  });

  describe('CARD 7–12x: 4.50 % + 60, minimum 1000 per installment', () => {
    it('7x at its minimum of 7000: 315 + 60', () => {
      expect(calculateFee(7000, 'CARD', 7)).toEqual({
        amount: 7000,
        method: 'CARD',
        installments: 7,
        fee: 375,
        netAmount: 6625,
        rate: { percentBasisPoints: 450, fixed: 60 },
      });
    });

    it('rejects 6999 in 7x', () => belowMinimum(() => calculateFee(6999, 'CARD', 7), 7000));

    it('rounds 319.5 up and 315.495 down', () => {
      expect(calculateFee(7100, 'CARD', 7)).toMatchObject({ fee: 380, netAmount: 6720 });
      expect(calculateFee(7011, 'CARD', 7)).toMatchObject({ fee: 375, netAmount: 6636 });
    });

    it('12x at its minimum of 12 000: 540 + 60', () => {
      expect(calculateFee(12_000, 'CARD', 12)).toEqual({
        amount: 12_000,
        method: 'CARD',
        installments: 12,
        fee: 600,
        netAmount: 11_400,
        rate: { percentBasisPoints: 450, fixed: 60 },
      });
    });

    it('12x rounds 544.5 up', () => {
      expect(calculateFee(12_100, 'CARD', 12)).toMatchObject({ fee: 605, netAmount: 11_495 });
    });

    it('rejects 11 999 in 12x', () => belowMinimum(() => calculateFee(11_999, 'CARD', 12), 12_000));
  });

  it('switches rate exactly between 1x/2x and 6x/7x on the same amount', () => {
    // 12 000 centavos: 1x 420 + 60, 2x and 6x 480 + 60, 7x 540 + 60
    expect(calculateFee(12_000, 'CARD', 1).fee).toBe(480);
    expect(calculateFee(12_000, 'CARD', 2).fee).toBe(540);
    expect(calculateFee(12_000, 'CARD', 6).fee).toBe(540);
    expect(calculateFee(12_000, 'CARD', 7).fee).toBe(600);
    expect(calculateFee(12_000, 'CARD', 12).fee).toBe(600);
  });

  it('returns a copy of the rate, so a caller cannot change the schedule', () => {
    const first = calculateFee(10_000, 'CARD', 1);
    first.rate.percentBasisPoints = 0;
    expect(calculateFee(10_000, 'CARD', 1).rate).toEqual({ percentBasisPoints: 350, fixed: 60 });
  });
});
