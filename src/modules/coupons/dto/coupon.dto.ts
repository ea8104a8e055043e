import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import { IsMetadata, Metadata } from '../../../common/validation/metadata';
import { upperCaseTrimmed } from '../../../common/validation/transforms';
import { MAX_AMOUNT } from '../../fees/fee-schedule';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

export const DISCOUNT_KINDS = ['PERCENTAGE', 'FIXED'] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];
export const COUPON_STATUSES = ['ACTIVE', 'INACTIVE', 'EXPIRED'] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];
const CODE = /^[A-Z0-9_-]{3,40}$/;
const CODE_MESSAGE = 'code must be 3–40 characters of A-Z, 0-9, _ and -';

export class CreateCouponDto {
  @ApiProperty({ example: 'BLACKFRIDAY', description: '3–40 of A-Z 0-9 _ -; matched case-insensitively' })
  @Transform(upperCaseTrimmed)
  @IsString()
  @Matches(CODE, { message: CODE_MESSAGE })
  code: string;

  @ApiProperty({ enum: DISCOUNT_KINDS })
  @IsIn(DISCOUNT_KINDS)
  discountKind: DiscountKind;

  @ApiProperty({ description: 'PERCENTAGE: 1–100; FIXED: centavos ≥ 1', example: 10 })
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  discount: number;

  @ApiPropertyOptional({ default: -1, description: '−1 = unlimited' })
  @OptionalField()
  @IsInt()
  @ValidateIf((body: CreateCouponDto) => body.maxRedeems !== -1)
  @Min(1, { message: 'maxRedeems must be -1 (unlimited) or at least 1' })
  @Max(1_000_000_000)
  maxRedeems?: number;

  @ApiPropertyOptional({ format: 'date-time' })
  @OptionalField()
  @IsISO8601({ strict: true })
  expiresAt?: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @OptionalField()
  @IsString()
  @MaxLength(1000)
  notes?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;
}

export class CouponIdDto {
  @ApiProperty({ example: 'coup_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class GetCouponQueryDto {
  @ApiPropertyOptional({ description: 'id or code' })
  @ValidateIf((query: GetCouponQueryDto) => query.code === undefined)
  @IsString()
  @IsNotEmpty({ message: 'id or code is required' })
  @MaxLength(60)
  id?: string;

  @ApiPropertyOptional({ description: 'case-insensitive' })
  @OptionalField()
  @Transform(upperCaseTrimmed)
  @IsString()
  @MaxLength(40)
  code?: string;
}

/** Code, kind and discount are fixed once created: checkouts already priced with them must stay explainable. */
export class UpdateCouponDto extends CouponIdDto {
  @ApiPropertyOptional({ description: '−1 = unlimited; otherwise ≥ redeemsCount' })
  @OptionalField()
  @IsInt()
  @ValidateIf((body: UpdateCouponDto) => body.maxRedeems !== -1)
  @Min(1, { message: 'maxRedeems must be -1 (unlimited) or at least 1' })
  @Max(1_000_000_000)
  maxRedeems?: number;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String, description: 'null removes the expiry' })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string | null;

  @ApiPropertyOptional({ maxLength: 1000, nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  notes?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;
}

export class ListCouponsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: COUPON_STATUSES })
  @OptionalField()
  @IsIn(COUPON_STATUSES)
  status?: CouponStatus;

  @ApiPropertyOptional()
  @OptionalField()
  @Transform(upperCaseTrimmed)
  @IsString()
  @MaxLength(40)
  code?: string;
}

export class CouponView {
  @ApiProperty({ example: 'coup_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty({ example: 'BLACKFRIDAY' }) code: string;
  @ApiProperty({ enum: DISCOUNT_KINDS }) discountKind: DiscountKind;
  @ApiProperty() discount: number;
  @ApiProperty({ description: '−1 = unlimited' }) maxRedeems: number;
  @ApiProperty() redeemsCount: number;
  @ApiProperty({ enum: COUPON_STATUSES }) status: CouponStatus;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ nullable: true, type: String }) notes: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Metadata;
  @ApiProperty() devMode: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class CouponPageView extends PageOf(CouponView) {}
