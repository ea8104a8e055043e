import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** The OpenAPI shape of a list page (API.md §1.2) of `item`: extend it as `class XPageView extends PageOf(XView) {}`. */
export function PageOf<T>(item: Type<T>) {
  class Page {
    @ApiProperty({ type: [item] }) items: T[];
    @ApiProperty() hasMore: boolean;
    @ApiProperty({ nullable: true, type: String, description: 'cursor for `after`; null on the last page' }) next: string | null;
  }
  return Page;
}
