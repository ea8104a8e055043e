import { Injectable } from '@nestjs/common';
import { validationError } from '../../common/errors/domain-error';
import { calculateFee, FeeQuote, PaymentMethod } from './fee-schedule';

@Injectable()
export class FeesService {
  quote(amount: number, method: PaymentMethod, installments = 1): FeeQuote {
    if (method !== 'CARD' && installments !== 1) {
      throw validationError('installments is only accepted for CARD', [
        { field: 'installments', message: 'only CARD can be paid in installments' },
      ]);
    }
    return calculateFee(amount, method, installments);
  }
}
