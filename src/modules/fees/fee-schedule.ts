import { DomainError } from '../../common/errors/domain-error';

/** API.md §7: fees and minimums per method, in centavos. */
export type PaymentMethod = 'PIX' | 'CARD' | 'BOLETO';
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['PIX', 'CARD', 'BOLETO'];

export interface FeeRate {
  percentBasisPoints: number;
  fixed: number;
}

export interface FeeQuote {
  amount: number;
  method: PaymentMethod;
  installments: number;
  fee: number;
  netAmount: number;
  rate: FeeRate;
}

interface FeeRule {
  rate: FeeRate;
  minimumAmount: (installments: number) => number;
}

function ruleFor(method: PaymentMethod, installments: number): FeeRule {
  switch (method) {
    case 'PIX':
      return { rate: { percentBasisPoints: 0, fixed: 80 }, minimumAmount: () => 100 };
    case 'BOLETO':
      return { rate: { percentBasisPoints: 0, fixed: 250 }, minimumAmount: () => 300 };
    case 'CARD':
      if (installments === 1) return { rate: { percentBasisPoints: 350, fixed: 60 }, minimumAmount: () => 100 };
      return {
        rate: { percentBasisPoints: installments <= 6 ? 400 : 450, fixed: 60 },
        minimumAmount: (count) => 1000 * count,
      };
  }
}

/** `amount × bps / 10000`, rounded half up to a whole centavo, in integer arithmetic. */
export function percentOf(amount: number, basisPoints: number): number {
  return Math.floor((amount * basisPoints + 5000) / 10000);
}

export const MAX_AMOUNT = 100_000_000_000; // R$ 1 billion: keeps amount × bps exact in a double
export const MAX_INSTALLMENTS = 12;

/**
 * The fee a charge pays. Callers validate `amount` (whole, 1..MAX_AMOUNT) and `installments` (1..12,
 * only above 1 for CARD); this throws AMOUNT_BELOW_MINIMUM below the method's minimum.
 */
export function calculateFee(amount: number, method: PaymentMethod, installments = 1): FeeQuote {
  const rule = ruleFor(method, installments);
  const minimum = rule.minimumAmount(installments);
  if (amount < minimum) {
    const perInstallment = method === 'CARD' && installments > 1 ? ` (R$ 10,00 per installment × ${installments})` : '';
    throw new DomainError('AMOUNT_BELOW_MINIMUM', `The minimum ${method} amount is ${minimum} centavos${perInstallment}`, [
      { field: 'amount', message: `must be at least ${minimum}`, minimum },
    ]);
  }
  const fee = percentOf(amount, rule.rate.percentBasisPoints) + rule.rate.fixed;
  return { amount, method, installments, fee, netAmount: amount - fee, rate: { ...rule.rate } };
}
