import { ApiProperty } from '@nestjs/swagger';
import { ListQueryDto } from '../../../common/pagination/pagination';
import { PageOf } from '../../../common/openapi/page.view';

export class BalanceView {
  @ApiProperty({ description: 'centavos' }) available: number;
  @ApiProperty({ description: 'centavos' }) pending: number;
  @ApiProperty({ description: 'centavos' }) blocked: number;
}

export class StoreView {
  @ApiProperty({ example: 'store_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'true for the sandbox (test) view of the store' }) devMode: boolean;
  @ApiProperty({ type: BalanceView }) balance: BalanceView;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class StorePageView {
  @ApiProperty({ type: [StoreView] }) items: StoreView[];
  @ApiProperty({ enum: [false] }) hasMore: boolean;
  @ApiProperty({ nullable: true, type: String, enum: [null] }) next: null;
}

export class LedgerEntryView {
  @ApiProperty({ example: 'txn_01JD2Z3M4N5P6Q7R8S9T0V1W2X' }) id: string;
  @ApiProperty({ example: 'charge.paid' }) type: string;
  @ApiProperty({ description: 'signed centavos' }) amount: number;
  @ApiProperty({ enum: ['available', 'pending', 'blocked'] }) bucket: string;
  @ApiProperty({ nullable: true, type: String }) sourceId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class LedgerEntryPageView extends PageOf(LedgerEntryView) {}

export class ListTransactionsQueryDto extends ListQueryDto {}
