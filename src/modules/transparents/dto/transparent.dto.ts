import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import { IsMetadata, Metadata } from '../../../common/validation/metadata';
import { lowerCaseTrimmed, trimmed } from '../../../common/validation/transforms';
import type { ChargeMethod, ChargeStatus } from '../../../database/database.types';
import { MAX_AMOUNT } from '../../fees/fee-schedule';
import { CHARGE_METHODS, CHARGE_STATUSES } from '../../charges/charge-values';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

export class TransparentCustomerDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalField()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional()
  @OptionalField()
  @Transform(lowerCaseTrimmed)
  @IsEmail({}, { message: 'customer.email must be a valid email address' })
  @MaxLength(320)
  email?: string;

  @ApiPropertyOptional({ description: 'CPF or CNPJ' })
  @OptionalField()
  @IsString()
  @MaxLength(24)
  taxId?: string;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  @Matches(/^\+?[0-9 ()-]{8,20}$/, { message: 'customer.cellphone must be 8–20 digits, spaces, parentheses or dashes' })
  cellphone?: string;
}

export class CardDto {
  @ApiProperty({ example: '4242424242424242', description: 'sandbox test numbers only (API.md §10.3)' })
  @IsString()
  @Matches(/^[0-9 ]{12,23}$/, { message: 'card.number must be 12–19 digits' })
  number: string;

  @ApiProperty({ example: 'JOAO DA SILVA' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  holderName: string;

  @ApiProperty({ minimum: 1, maximum: 12 })
  @IsInt()
  @Min(1)
  @Max(12)
  expMonth: number;

  @ApiProperty({ example: 2030 })
  @IsInt()
  @Min(2000)
  @Max(2100)
  expYear: number;

  @ApiProperty({ example: '123' })
  @IsString()
  @Matches(/^\d{3,4}$/, { message: 'card.cvv must be 3 or 4 digits' })
  cvv: string;
}

export class TransparentDataDto {
  @ApiProperty({ description: 'centavos', example: 10000 })
  @IsInt({ message: 'data.amount must be a whole number of centavos' })
  @Min(1)
  @Max(MAX_AMOUNT)
  amount: number;

  @ApiPropertyOptional({ maxLength: 1000 })
  @OptionalField()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ type: TransparentCustomerDto, description: 'BOLETO needs name and taxId' })
  @OptionalField()
  @ValidateNested()
  @Type(() => TransparentCustomerDto)
  customer?: TransparentCustomerDto;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  externalId?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;

  @ApiPropertyOptional({ minimum: 60, maximum: 604800, default: 3600, description: 'PIX only, seconds' })
  @OptionalField()
  @IsInt()
  @Min(60)
  @Max(604_800)
  expiresIn?: number;

  @ApiPropertyOptional({ example: '2026-12-01', description: 'BOLETO only, default today + 3 days' })
  @OptionalField()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'data.dueDate must be YYYY-MM-DD' })
  dueDate?: string;

  @ApiPropertyOptional({ type: CardDto, description: 'CARD only' })
  @OptionalField()
  @ValidateNested()
  @Type(() => CardDto)
  card?: CardDto;

  @ApiPropertyOptional({ minimum: 1, maximum: 12, default: 1, description: 'CARD only' })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(12)
  installments?: number;
}

export class CreateTransparentDto {
  @ApiProperty({ enum: CHARGE_METHODS })
  @IsIn(CHARGE_METHODS)
  method: ChargeMethod;

  @ApiProperty({ type: TransparentDataDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => TransparentDataDto)
  data: TransparentDataDto;
}

export class TransparentIdDto {
  @ApiProperty({ example: 'pix_char_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class TransparentRefundDto extends TransparentIdDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalField()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

export class ListTransparentsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: CHARGE_STATUSES })
  @OptionalField()
  @IsIn(CHARGE_STATUSES)
  status?: ChargeStatus;

  @ApiPropertyOptional({ enum: CHARGE_METHODS })
  @OptionalField()
  @IsIn(CHARGE_METHODS)
  method?: ChargeMethod;
}

export class CardSummaryView {
  @ApiProperty({ example: 'VISA' }) brand: string;
  @ApiProperty({ example: '4242' }) last4: string;
}

export class TransparentCustomerView {
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ nullable: true, type: String }) email: string | null;
  @ApiProperty({ nullable: true, type: String }) taxId: string | null;
  @ApiProperty({ nullable: true, type: String }) cellphone: string | null;
}

export class TransparentView {
  @ApiProperty({ example: 'pix_char_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty({ enum: CHARGE_METHODS }) method: ChargeMethod;
  @ApiProperty({ enum: CHARGE_STATUSES }) status: ChargeStatus;
  @ApiProperty() amount: number;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'PIX copia e cola' }) brCode: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'data:image/png;base64 QR code' }) brCodeBase64: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'BOLETO, 47 digits' }) digitableLine: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'BOLETO, 44 digits' }) barCode: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'BOLETO, YYYY-MM-DD' }) dueDate: string | null;
  @ApiProperty({ type: CardSummaryView, nullable: true }) card: CardSummaryView | null;
  @ApiProperty() installments: number;
  @ApiProperty({ nullable: true, type: Number }) fee: number | null;
  @ApiProperty({ nullable: true, type: Number }) netAmount: number | null;
  @ApiProperty({ type: TransparentCustomerView, nullable: true }) customer: TransparentCustomerView | null;
  @ApiProperty({ nullable: true, type: String }) externalId: string | null;
  @ApiProperty({ nullable: true, type: String }) failureReason: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) paidAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) refundedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) cancelledAt: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Metadata;
  @ApiProperty() devMode: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class TransparentCheckView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: CHARGE_STATUSES }) status: ChargeStatus;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
}

export class TransparentPageView extends PageOf(TransparentView) {}
