import { conflict, notFound, validationError } from '../../common/errors/domain-error';

export const productNotFound = () => notFound('Product');
export const externalIdTaken = () => conflict('A product with this externalId already exists');
export const trialNeedsCycle = () =>
  validationError('trialDays is only allowed on a product with a cycle', [
    { field: 'trialDays', message: 'needs a cycle (a subscription product)' },
  ]);
