import { conflict, notFound, validationError } from '../../common/errors/domain-error';

export const customerNotFound = () => notFound('Customer');
export const invalidTaxId = () =>
  validationError('taxId is not a valid CPF or CNPJ', [
    { field: 'taxId', message: 'must be a CPF (11 digits) or CNPJ (14 characters) with valid check digits' },
  ]);
export const taxIdTaken = () => conflict('Another customer of this store already has this taxId');
