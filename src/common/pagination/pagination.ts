import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { validationError } from '../errors/domain-error';
import { strictInteger } from '../validation/transforms';
import { OptionalField } from '../validation/optional-field';

/** `limit` and `after` of every list route (API.md §1.2). Family list DTOs extend it with their filters. */
export class ListQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @OptionalField()
  @Transform(strictInteger)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'Cursor: the `next` of the previous page' })
  @OptionalField()
  @IsString()
  @MaxLength(200)
  after?: string;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  next: string | null;
}

/** What a repository needs to read one page: ids are time-sortable, so `id < afterId` newest first. */
export interface PageRequest {
  limit: number;
  afterId: string | null;
}

const DEFAULT_LIMIT = 20;

export function toPageRequest(query: ListQueryDto): PageRequest {
  return { limit: query.limit ?? DEFAULT_LIMIT, afterId: query.after ? decodeCursor(query.after) : null };
}

/** Builds the page from `limit + 1` rows read by the repository. */
export function toPage<Row extends { id: string }, Item>(
  rows: Row[],
  request: PageRequest,
  present: (row: Row) => Item,
): Page<Item> {
  const hasMore = rows.length > request.limit;
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  return {
    items: pageRows.map(present),
    hasMore,
    next: hasMore ? encodeCursor(pageRows[pageRows.length - 1].id) : null,
  };
}

export function encodeCursor(id: string): string {
  return Buffer.from(`v1:${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string {
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^v1:([a-z_]+_[0-9A-Z]{26})$/.exec(decoded);
  if (!match) throw validationError('Invalid cursor', [{ field: 'after', message: 'after is not a valid cursor' }]);
  return match[1];
}
