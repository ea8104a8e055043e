import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  IsUrl,
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
import { CHARGE_METHODS, CHARGE_STATUSES, URL_OPTIONS } from '../../charges/charge-values';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

export class CheckoutItemDto {
  @ApiProperty({ example: 'prod_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  productId: string;

  @ApiProperty({ minimum: 1, maximum: 999 })
  @IsInt()
  @Min(1)
  @Max(999)
  quantity: number;
}

export class InlineCustomerDto {
  @ApiProperty({ maxLength: 200 })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty()
  @Transform(lowerCaseTrimmed)
  @IsEmail({}, { message: 'customer.email must be a valid email address' })
  @MaxLength(320)
  email: string;

  @ApiProperty({ description: 'CPF or CNPJ' })
  @IsString()
  @MaxLength(24)
  taxId: string;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  @Matches(/^\+?[0-9 ()-]{8,20}$/, { message: 'customer.cellphone must be 8–20 digits, spaces, parentheses or dashes' })
  cellphone?: string;
}

/** What a checkout and a payment link share: the items, methods, coupon and completion URL. */
export class CheckoutContentDto {
  @ApiProperty({ type: [CheckoutItemDto], minItems: 1, maxItems: 50 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => CheckoutItemDto)
  items: CheckoutItemDto[];

  @ApiPropertyOptional({ enum: CHARGE_METHODS, isArray: true, default: ['PIX', 'CARD'] })
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(CHARGE_METHODS, { each: true })
  methods?: ChargeMethod[];

  @ApiPropertyOptional({ description: 'coupon code, case-insensitive' })
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  coupon?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  externalId?: string;

  @ApiPropertyOptional({ description: 'where the buyer goes after paying' })
  @OptionalField()
  @IsUrl(URL_OPTIONS, { message: 'completionUrl must be an http(s) URL' })
  @MaxLength(2000)
  completionUrl?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;
}

export class CreateCheckoutDto extends CheckoutContentDto {
  @ApiPropertyOptional({ description: 'an existing customer; or send `customer`' })
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  customerId?: string;

  @ApiPropertyOptional({ type: InlineCustomerDto, description: 'found by taxId or created' })
  @OptionalField()
  @ValidateNested()
  @Type(() => InlineCustomerDto)
  customer?: InlineCustomerDto;

  @ApiPropertyOptional({ description: 'where the buyer goes back to without paying' })
  @OptionalField()
  @IsUrl(URL_OPTIONS, { message: 'returnUrl must be an http(s) URL' })
  @MaxLength(2000)
  returnUrl?: string;

  @ApiPropertyOptional({ minimum: 300, maximum: 2592000, default: 86400, description: 'seconds' })
  @OptionalField()
  @IsInt()
  @Min(300)
  @Max(2_592_000)
  expiresIn?: number;
}

export class CheckoutIdDto {
  @ApiProperty({ example: 'bill_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class RefundDto extends CheckoutIdDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalField()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

export class SimulateCheckoutPaymentDto extends CheckoutIdDto {
  @ApiPropertyOptional({ enum: CHARGE_METHODS, description: 'one of the checkout methods; default: the first' })
  @OptionalField()
  @IsIn(CHARGE_METHODS)
  method?: ChargeMethod;
}

export class ListCheckoutsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: CHARGE_STATUSES })
  @OptionalField()
  @IsIn(CHARGE_STATUSES)
  status?: ChargeStatus;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  @MaxLength(100)
  externalId?: string;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  @MaxLength(60)
  customerId?: string;
}

export class CheckoutItemView {
  @ApiProperty() productId: string;
  @ApiProperty() name: string;
  @ApiProperty() quantity: number;
  @ApiProperty({ description: 'centavos' }) unitPrice: number;
}

export class CheckoutView {
  @ApiProperty({ example: 'bill_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty({ description: 'hosted payment page' }) url: string;
  @ApiProperty({ enum: CHARGE_STATUSES }) status: ChargeStatus;
  @ApiProperty({ type: [CheckoutItemView] }) items: CheckoutItemView[];
  @ApiProperty() subtotal: number;
  @ApiProperty() discount: number;
  @ApiProperty({ description: 'subtotal − discount' }) amount: number;
  @ApiProperty({ enum: CHARGE_METHODS, isArray: true }) methods: ChargeMethod[];
  @ApiProperty({ enum: CHARGE_METHODS, nullable: true, description: 'the method it was paid with' }) method: ChargeMethod | null;
  @ApiProperty() installments: number;
  @ApiProperty({ nullable: true, type: Number }) fee: number | null;
  @ApiProperty({ nullable: true, type: Number }) netAmount: number | null;
  @ApiProperty({ nullable: true, type: String }) customerId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'coupon code' }) coupon: string | null;
  @ApiProperty({ nullable: true, type: String }) externalId: string | null;
  @ApiProperty({ nullable: true, type: String }) returnUrl: string | null;
  @ApiProperty({ nullable: true, type: String }) completionUrl: string | null;
  @ApiProperty({ nullable: true, type: String }) paymentLinkId: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) paidAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) refundedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) cancelledAt: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Metadata;
  @ApiProperty() devMode: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class CheckoutPageView extends PageOf(CheckoutView) {}
