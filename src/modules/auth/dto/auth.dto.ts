import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';
import { ApiKeyWithSecretView } from '../../api-keys/dto/api-key.dto';
import { OptionalField } from '../../../common/validation/optional-field';

const normaliseEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class RegisterDto {
  @ApiProperty({ maxLength: 200, example: 'Maria Silva' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty({ example: 'maria@loja.com.br' })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email: string;

  @ApiProperty({ minLength: 10, maxLength: 200 })
  @IsString()
  @MinLength(10, { message: 'password must be at least 10 characters' })
  @MaxLength(200)
  password: string;

  @ApiPropertyOptional({ maxLength: 200, example: 'Loja da Maria' })
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  storeName?: string;
}

export class LoginDto {
  @ApiProperty()
  @Transform(normaliseEmail)
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  email: string;

  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  password: string;
}

export class MerchantView {
  @ApiProperty({ example: 'mrc_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class StoreSummaryView {
  @ApiProperty({ example: 'store_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SessionView {
  @ApiProperty({ example: 'sess_...', description: 'Send as `Authorization: Bearer sess_…` or the `sess` cookie' })
  token: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class RegisterResultView {
  @ApiProperty({ type: MerchantView }) merchant: MerchantView;
  @ApiProperty({ type: StoreSummaryView }) store: StoreSummaryView;
  @ApiProperty({ type: SessionView }) session: SessionView;
  @ApiProperty({ type: ApiKeyWithSecretView, description: 'The default sandbox key, shown once' })
  apiKey: ApiKeyWithSecretView;
}

export class LoginResultView {
  @ApiProperty({ type: MerchantView }) merchant: MerchantView;
  @ApiProperty({ type: SessionView }) session: SessionView;
}

export class MeView {
  @ApiProperty({ type: MerchantView }) merchant: MerchantView;
  @ApiProperty({ type: StoreSummaryView }) store: StoreSummaryView;
}

export class LogoutResultView {
  @ApiProperty({ enum: [true] }) loggedOut: true;
}
