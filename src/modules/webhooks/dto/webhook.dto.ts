import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import type { DeliveryStatus } from '../../../database/database.types';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

const EVENT_CHOICES = ['*', ...WEBHOOK_EVENT_TYPES];
const DELIVERY_STATUSES: DeliveryStatus[] = ['PENDING', 'SUCCEEDED', 'FAILED'];

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://shop.example.com/webhooks/payments', description: 'live: https and a public address' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url: string;

  @ApiProperty({ type: [String], example: ['checkout.paid'], description: 'event types, or ["*"]' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(40)
  @ArrayUnique()
  @IsIn(EVENT_CHOICES, { each: true, message: 'events must be known event types or "*"' })
  events: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalField()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ default: true })
  @OptionalField()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookIdDto {
  @ApiProperty({ example: 'wh_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class UpdateWebhookDto extends WebhookIdDto {
  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url?: string;

  @ApiPropertyOptional({ type: [String] })
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(40)
  @ArrayUnique()
  @IsIn(EVENT_CHOICES, { each: true, message: 'events must be known event types or "*"' })
  events?: string[];

  @ApiPropertyOptional({ nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional()
  @OptionalField()
  @IsBoolean()
  enabled?: boolean;
}

export class ListDeliveriesQueryDto extends ListQueryDto {
  @ApiProperty({ description: 'endpoint id' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;

  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @OptionalField()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;
}

export class ResendDeliveryDto {
  @ApiProperty({ example: 'whd_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  deliveryId: string;
}

export class WebhookView {
  @ApiProperty({ example: 'wh_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: [String] }) events: string[];
  @ApiProperty() enabled: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'why the service disabled it (e.g. the receiver answered 410)' })
  disabledReason: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty() devMode: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class WebhookWithSecretView extends WebhookView {
  @ApiProperty({ description: 'whsec_…: shown only at create and rotate-secret' }) secret: string;
}

export class WebhookPageView extends PageOf(WebhookView) {}

export class DeliveryAttemptView {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ nullable: true, type: Number }) statusCode: number | null;
  @ApiProperty() durationMs: number;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
}

export class DeliveryView {
  @ApiProperty({ example: 'whd_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty() endpointId: string;
  @ApiProperty() eventId: string;
  @ApiProperty() eventType: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: DeliveryStatus;
  @ApiProperty({ type: [DeliveryAttemptView] }) attempts: DeliveryAttemptView[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) nextAttemptAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class DeliveryPageView extends PageOf(DeliveryView) {}
