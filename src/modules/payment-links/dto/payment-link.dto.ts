import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, IsUrl, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import { IsMetadata, Metadata } from '../../../common/validation/metadata';
import { trimmed } from '../../../common/validation/transforms';
import type { ChargeMethod } from '../../../database/database.types';
import { CHARGE_METHODS, URL_OPTIONS } from '../../charges/charge-values';
import { CheckoutContentDto, CheckoutItemView, InlineCustomerDto } from '../../checkouts/dto/checkout.dto';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

export const PAYMENT_LINK_STATUSES = ['ACTIVE', 'INACTIVE', 'EXPIRED'] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];

export class CreatePaymentLinkDto extends CheckoutContentDto {
  @ApiProperty({ maxLength: 200, example: 'Camiseta azul' })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ minimum: 1, description: 'payments accepted in all; none: unlimited' })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  maxPayments?: number;

  @ApiPropertyOptional({ format: 'date-time' })
  @OptionalField()
  @IsISO8601({ strict: true })
  expiresAt?: string;
}

export class PaymentLinkIdDto {
  @ApiProperty({ example: 'plink_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class UpdatePaymentLinkDto extends PaymentLinkIdDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalField()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'completionUrl must be an http(s) URL' })
  @MaxLength(2000)
  completionUrl?: string | null;

  @ApiPropertyOptional({ nullable: true, type: Number, description: 'null: unlimited; else ≥ paymentsCount' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  maxPayments?: number | null;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;
}

export class SimulateLinkPaymentDto extends PaymentLinkIdDto {
  @ApiPropertyOptional({ type: InlineCustomerDto })
  @OptionalField()
  @ValidateNested()
  @Type(() => InlineCustomerDto)
  customer?: InlineCustomerDto;
}

export class LinkPaymentsQueryDto extends ListQueryDto {
  @ApiProperty({ example: 'plink_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class PaymentLinkView {
  @ApiProperty({ example: 'plink_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty({ description: 'hosted page buyers open' }) url: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: PAYMENT_LINK_STATUSES }) status: PaymentLinkStatus;
  @ApiProperty({ type: [CheckoutItemView] }) items: CheckoutItemView[];
  @ApiProperty({ description: 'centavos, before any coupon' }) amount: number;
  @ApiProperty({ enum: CHARGE_METHODS, isArray: true }) methods: ChargeMethod[];
  @ApiProperty() paymentsCount: number;
  @ApiProperty({ nullable: true, type: Number }) maxPayments: number | null;
  @ApiProperty({ nullable: true, type: String }) coupon: string | null;
  @ApiProperty({ nullable: true, type: String }) externalId: string | null;
  @ApiProperty({ nullable: true, type: String }) completionUrl: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Metadata;
  @ApiProperty() devMode: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class PaymentLinkPageView extends PageOf(PaymentLinkView) {}
