import { notFound } from '../../common/errors/domain-error';

export const disputeNotFound = () => notFound('Dispute');
