import { notFound, validationError } from '../../common/errors/domain-error';

export const webhookNotFound = () => notFound('Webhook endpoint');
export const deliveryNotFound = () => notFound('Webhook delivery');
export const badEndpointUrl = (problem: string) => validationError(problem, [{ field: 'url', message: problem }]);
