import { ApiProperty } from '@nestjs/swagger';

/** What every `delete` route answers. */
export class DeletedView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: [true] }) deleted: true;
}
