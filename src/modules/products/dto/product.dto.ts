import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import { IsMetadata, Metadata } from '../../../common/validation/metadata';
import { trimmed } from '../../../common/validation/transforms';
import type { ProductCycle } from '../../../database/database.types';
import { MAX_AMOUNT } from '../../fees/fee-schedule';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

export const PRODUCT_CYCLES: readonly ProductCycle[] = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUALLY', 'ANNUALLY'];
export const PRODUCT_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

export class CreateProductDto {
  @ApiProperty({ maxLength: 100, example: 'sku-camiseta-azul', description: 'Your id; unique per store and mode' })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  externalId: string;

  @ApiProperty({ maxLength: 200, example: 'Camiseta azul' })
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty({ description: 'centavos, ≥ 100', minimum: 100, example: 4990 })
  @IsInt({ message: 'price must be a whole number of centavos' })
  @Min(100)
  @Max(MAX_AMOUNT)
  price: number;

  @ApiPropertyOptional({ maxLength: 1000 })
  @OptionalField()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ example: 'https://cdn.example.com/camiseta.png' })
  @OptionalField()
  @IsUrl(URL_OPTIONS, { message: 'imageUrl must be an http(s) URL' })
  @MaxLength(2000)
  imageUrl?: string;

  @ApiPropertyOptional({ enum: PRODUCT_CYCLES, nullable: true, description: 'null: one-off product' })
  @IsOptional()
  @IsIn(PRODUCT_CYCLES)
  cycle?: ProductCycle | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 90, description: 'only with a cycle' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(90)
  trialDays?: number | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;
}

export class ProductIdDto {
  @ApiProperty({ example: 'prod_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class GetProductQueryDto {
  @ApiPropertyOptional({ description: 'id or externalId' })
  @ValidateIf((query: GetProductQueryDto) => query.externalId === undefined)
  @IsString()
  @IsNotEmpty({ message: 'id or externalId is required' })
  @MaxLength(60)
  id?: string;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  externalId?: string;
}

export class UpdateProductDto extends ProductIdDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalField()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  externalId?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalField()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ minimum: 100 })
  @OptionalField()
  @IsInt({ message: 'price must be a whole number of centavos' })
  @Min(100)
  @Max(MAX_AMOUNT)
  price?: number;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'imageUrl must be an http(s) URL' })
  @MaxLength(2000)
  imageUrl?: string | null;

  @ApiPropertyOptional({ enum: PRODUCT_CYCLES, nullable: true })
  @IsOptional()
  @IsIn(PRODUCT_CYCLES)
  cycle?: ProductCycle | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 90, nullable: true, type: Number })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(90)
  trialDays?: number | null;

  @ApiPropertyOptional({ enum: PRODUCT_STATUSES })
  @OptionalField()
  @IsIn(PRODUCT_STATUSES)
  status?: ProductStatus;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;
}

export class ListProductsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: PRODUCT_STATUSES })
  @OptionalField()
  @IsIn(PRODUCT_STATUSES)
  status?: ProductStatus;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  @MaxLength(100)
  externalId?: string;
}

export class ProductView {
  @ApiProperty({ example: 'prod_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty() externalId: string;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ nullable: true, type: String }) imageUrl: string | null;
  @ApiProperty({ description: 'centavos' }) price: number;
  @ApiProperty({ enum: ['BRL'] }) currency: 'BRL';
  @ApiProperty({ enum: PRODUCT_CYCLES, nullable: true }) cycle: ProductCycle | null;
  @ApiProperty({ nullable: true, type: Number }) trialDays: number | null;
  @ApiProperty({ enum: PRODUCT_STATUSES }) status: ProductStatus;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Metadata;
  @ApiProperty() devMode: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ProductPageView extends PageOf(ProductView) {}
