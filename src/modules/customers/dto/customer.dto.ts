import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import { IsMetadata, Metadata } from '../../../common/validation/metadata';
import { lowerCaseTrimmed, trimmed } from '../../../common/validation/transforms';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

const CELLPHONE = /^\+?[0-9 ()-]{8,20}$/;
const ZIP_CODE = /^\d{5}-?\d{3}$/;

export class CreateCustomerDto {
  @ApiProperty({ example: 'joao@example.com' })
  @Transform(lowerCaseTrimmed)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email: string;

  @ApiPropertyOptional({ maxLength: 200, example: 'João da Silva' })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string | null;

  @ApiPropertyOptional({ example: '+55 11 91234-5678' })
  @IsOptional()
  @IsString()
  @Matches(CELLPHONE, { message: 'cellphone must be 8–20 digits, spaces, parentheses or dashes' })
  cellphone?: string | null;

  @ApiPropertyOptional({ description: 'CPF or CNPJ (alphanumeric CNPJ included), punctuation accepted', example: '529.982.247-25' })
  @IsOptional()
  @IsString()
  @MaxLength(24)
  taxId?: string | null;

  @ApiPropertyOptional({ description: 'CEP, 8 digits', example: '01310-100' })
  @IsOptional()
  @IsString()
  @Matches(ZIP_CODE, { message: 'zipCode must be a CEP: 8 digits, optionally 00000-000' })
  zipCode?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, example: { crmId: '42' } })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;
}

export class CustomerIdDto {
  @ApiProperty({ example: 'cust_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class UpdateCustomerDto extends CustomerIdDto {
  @ApiPropertyOptional()
  @ValidateIf((body: UpdateCustomerDto) => body.email !== undefined)
  @Transform(lowerCaseTrimmed)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email?: string;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'null clears it' })
  @IsOptional()
  @Transform(trimmed)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @Matches(CELLPHONE, { message: 'cellphone must be 8–20 digits, spaces, parentheses or dashes' })
  cellphone?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(24)
  taxId?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @Matches(ZIP_CODE, { message: 'zipCode must be a CEP: 8 digits, optionally 00000-000' })
  zipCode?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'replaces the whole map' })
  @OptionalField()
  @IsMetadata()
  metadata?: Metadata;
}

export class ListCustomersQueryDto extends ListQueryDto {
  @ApiPropertyOptional()
  @OptionalField()
  @Transform(lowerCaseTrimmed)
  @IsString()
  @MaxLength(320)
  email?: string;

  @ApiPropertyOptional({ description: 'CPF or CNPJ, punctuation accepted' })
  @OptionalField()
  @IsString()
  @MaxLength(24)
  taxId?: string;
}

export class CustomerView {
  @ApiProperty({ example: 'cust_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty() email: string;
  @ApiProperty({ nullable: true, type: String }) cellphone: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'digits (and upper-case letters for an alphanumeric CNPJ)' })
  taxId: string | null;
  @ApiProperty({ nullable: true, type: String, description: '8 digits' }) zipCode: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Metadata;
  @ApiProperty() devMode: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class CustomerPageView extends PageOf(CustomerView) {}
