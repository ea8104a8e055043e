import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '../../../common/pagination/pagination';
import { OptionalField } from '../../../common/validation/optional-field';
import { PageOf } from '../../../common/openapi/page.view';

export class ListEventsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ example: 'checkout.paid' })
  @OptionalField()
  @IsString()
  @MaxLength(60)
  type?: string;
}

export class EventIdDto {
  @ApiProperty({ example: 'evt_01JD2Z3M4N5P6Q7R8S9T0V1W2X' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(60)
  id: string;
}

export class EventDataView {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'the resource as `get` returned it then' })
  object: Record<string, unknown>;
}

export class EventView {
  @ApiProperty({ example: 'evt_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty({ example: 'checkout.paid' }) type: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty() devMode: boolean;
  @ApiProperty({ type: EventDataView }) data: EventDataView;
}

export class EventPageView extends PageOf(EventView) {}
