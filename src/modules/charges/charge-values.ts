import type { ChargeMethod, ChargeStatus } from '../../database/database.types';

export const CHARGE_METHODS: readonly ChargeMethod[] = ['PIX', 'CARD', 'BOLETO'];
export const CHARGE_STATUSES: readonly ChargeStatus[] = [
  'PENDING',
  'PAID',
  'REFUNDED',
  'EXPIRED',
  'CANCELLED',
  'FAILED',
  'UNDER_DISPUTE',
  'CHARGED_BACK',
];
/** URLs a merchant gives us to send buyers to. */
export const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
