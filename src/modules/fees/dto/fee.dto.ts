import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { strictInteger } from '../../../common/validation/transforms';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { MAX_AMOUNT, MAX_INSTALLMENTS, PAYMENT_METHODS, PaymentMethod } from '../fee-schedule';
import { OptionalField } from '../../../common/validation/optional-field';


export class CalculateFeeQueryDto {
  @ApiProperty({ description: 'centavos', minimum: 1, maximum: MAX_AMOUNT, example: 10000 })
  @Transform(strictInteger)
  @IsInt({ message: 'amount must be a whole number of centavos' })
  @Min(1)
  @Max(MAX_AMOUNT)
  amount: number;

  @ApiProperty({ enum: PAYMENT_METHODS, description: 'case-insensitive' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(PAYMENT_METHODS, { message: 'method must be one of PIX, CARD, BOLETO' })
  method: PaymentMethod;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_INSTALLMENTS, default: 1, description: 'CARD only' })
  @OptionalField()
  @Transform(strictInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INSTALLMENTS)
  installments?: number;
}

export class FeeRateView {
  @ApiProperty({ example: 350 }) percentBasisPoints: number;
  @ApiProperty({ example: 60 }) fixed: number;
}

export class FeeQuoteView {
  @ApiProperty() amount: number;
  @ApiProperty({ enum: PAYMENT_METHODS }) method: PaymentMethod;
  @ApiProperty() installments: number;
  @ApiProperty() fee: number;
  @ApiProperty() netAmount: number;
  @ApiProperty({ type: FeeRateView }) rate: FeeRateView;
}
