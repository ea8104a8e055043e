import { DomainError, validationError } from '../../common/errors/domain-error';

export const fieldNotForMethod = (field: string, method: string) =>
  validationError(`data.${field} does not apply to ${method}`, [{ field: `data.${field}`, message: `not accepted for ${method}` }]);
export const boletoNeedsPayer = () =>
  validationError('BOLETO needs data.customer.name and data.customer.taxId', [
    { field: 'data.customer', message: 'name and taxId are required for BOLETO' },
  ]);
export const invalidCustomerTaxId = () =>
  validationError('data.customer.taxId is not a valid CPF or CNPJ', [
    { field: 'data.customer.taxId', message: 'must be a CPF or CNPJ with valid check digits' },
  ]);
export const cardRequired = () =>
  validationError('CARD needs data.card', [{ field: 'data.card', message: 'required for CARD' }]);
export const liveCardUnavailable = () =>
  validationError('Live card charges need a payment provider; this build takes sandbox test cards only', [
    { field: 'data.card', message: 'raw card numbers are accepted with sandbox keys only' },
  ]);
export const cardNumberInvalid = () =>
  validationError('data.card.number fails the Luhn check', [{ field: 'data.card.number', message: 'not a valid card number' }]);
export const cardExpired = () =>
  validationError('The card expiry date is in the past', [{ field: 'data.card.expYear', message: 'card has expired' }]);
export const dueDateInvalid = () =>
  validationError('data.dueDate must be a real date, today or later', [{ field: 'data.dueDate', message: 'today or later' }]);
export const boletoAmountTooLarge = () =>
  validationError('A boleto carries at most R$ 99.999.999,99', [{ field: 'data.amount', message: 'at most 9999999999' }]);

const DECLINE_MESSAGES: Record<string, string> = {
  generic_decline: 'The card was declined',
  expired_card: 'The card has expired',
  incorrect_cvc: 'The card security code is incorrect',
};

/** 402: the charge is stored as FAILED; its id travels in the details so the integrator can find it. */
export const cardDeclined = (reason: string, chargeId: string) =>
  new DomainError('CARD_DECLINED', DECLINE_MESSAGES[reason] ?? 'The card was declined', [
    { field: 'data.card', message: DECLINE_MESSAGES[reason] ?? 'declined', reason, chargeId },
  ]);
