import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import type { Mode } from '../../../database/database.types';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

const MODES = ['test', 'live'] as const;
const PERMISSIONS_EXAMPLE = ['customers:read', 'checkouts:write'];

export class CreateApiKeyDto {
  @ApiProperty({ maxLength: 100, example: 'Backend (orders service)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ enum: MODES, default: 'test' })
  @OptionalField()
  @IsIn(MODES)
  mode?: Mode;

  @ApiProperty({ type: [String], example: PERMISSIONS_EXAMPLE, description: '["*"] or <resource>:read|write' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(40)
  @IsString({ each: true })
  permissions: string[];

  @ApiPropertyOptional({ format: 'date-time' })
  @OptionalField()
  @IsISO8601({ strict: true })
  expiresAt?: string;
}

export class ApiKeyIdDto {
  @ApiProperty({ example: 'key_01JD...' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class UpdateApiKeyDto extends ApiKeyIdDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ type: [String], example: PERMISSIONS_EXAMPLE })
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(40)
  @IsString({ each: true })
  permissions?: string[];
}

export class RollApiKeyDto extends ApiKeyIdDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 604800, default: 0, description: 'How long the old key keeps working' })
  @OptionalField()
  @IsInt()
  @Min(0)
  @Max(604800)
  expiresInSeconds?: number;
}

export class ListApiKeysQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: MODES })
  @OptionalField()
  @IsIn(MODES)
  mode?: Mode;
}

export class GetApiKeyQueryDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class ApiKeyView {
  @ApiProperty({ example: 'key_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: MODES }) mode: Mode;
  @ApiProperty({ type: [String], example: ['*'] }) permissions: string[];
  @ApiProperty({ example: 'sk_test_Ab3d' }) prefix: string;
  @ApiProperty({ example: 'x9Yz' }) last4: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) lastUsedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revokedAt: string | null;
}

export class ApiKeyWithSecretView extends ApiKeyView {
  @ApiProperty({ description: 'The full key. Shown only in this response.', example: 'sk_test_...' })
  key: string;
}

export class ApiKeyPageView extends PageOf(ApiKeyView) {}
