import { validationError } from '../../common/errors/domain-error';

export const itemProblem = (index: number, message: string) =>
  validationError(`items[${index}].productId: ${message}`, [{ field: `items[${index}].productId`, message }]);
export const customerChoice = () =>
  validationError('Send customerId or customer, not both', [{ field: 'customer', message: 'send customerId or customer, not both' }]);
export const unknownCustomer = () =>
  validationError('customerId: no such customer', [{ field: 'customerId', message: 'no such customer in this store' }]);
export const methodNotOffered = (method: string) =>
  validationError(`This checkout does not accept ${method}`, [{ field: 'method', message: `${method} is not one of the checkout's methods` }]);
export const amountTooLarge = () =>
  validationError('The checkout total is too large', [{ field: 'items', message: 'total exceeds R$ 1 billion' }]);
