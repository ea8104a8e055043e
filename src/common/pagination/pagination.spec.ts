import { DomainError } from '../errors/domain-error';
import { decodeCursor, encodeCursor, toPage, toPageRequest } from './pagination';

const expectValidationError = (run: () => unknown) => {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DomainError);
  expect((caught as DomainError).code).toBe('VALIDATION_ERROR');
  expect((caught as DomainError).details).toEqual([{ field: 'after', message: expect.any(String) }]);
};

const ID_A = 'txn_01JD2Z3M4N5P6Q7R8S9T0V1W2X';
const ID_B = 'pix_char_01JD2Z3M4N5P6Q7R8S9T0V1W2Y';

describe('cursors', () => {
  it('round-trips an id', () => {
    expect(decodeCursor(encodeCursor(ID_A))).toBe(ID_A);
    expect(decodeCursor(encodeCursor(ID_B))).toBe(ID_B);
  });

  it('is opaque: the id does not appear in the cursor, and the cursor is URL-safe', () => {
    const cursor = encodeCursor(ID_A);
    expect(cursor).not.toContain(ID_A);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('decodes a cursor built by hand (base64url of "v1:<id>")', () => {
    const handMade = Buffer.from(`v1:${ID_A}`).toString('base64url');
    expect(decodeCursor(handMade)).toBe(ID_A);
  });

  it.each([
    ['empty', ''],
    ['plain garbage', 'abc'],
    ['a raw id', ID_A],
    ['non-base64 characters', 'djE6dHhu!!'],
    ['standard base64 with padding', `${Buffer.from(`v1:${ID_A}`).toString('base64')}=`],
    ['wrong version', Buffer.from(`v2:${ID_A}`).toString('base64url')],
    ['no version', Buffer.from(ID_A).toString('base64url')],
    ['short id', Buffer.from('v1:txn_01JD2Z').toString('base64url')],
    ['lower-case id body', Buffer.from('v1:txn_01jd2z3m4n5p6q7r8s9t0v1w2x').toString('base64url')],
    ['no prefix', Buffer.from('v1:01JD2Z3M4N5P6Q7R8S9T0V1W2X').toString('base64url')],
    ['SQL in the id', Buffer.from("v1:txn_01JD2Z3M4N5P6Q7R8S9T0V1W2X' OR 1=1").toString('base64url')],
    ['trailing text', Buffer.from(`v1:${ID_A}x`).toString('base64url')],
  ])('rejects %s with VALIDATION_ERROR', (_label, cursor) => {
    expectValidationError(() => decodeCursor(cursor));
  });
});

describe('toPageRequest', () => {
  it('defaults to 20 and no cursor', () => {
    expect(toPageRequest({})).toEqual({ limit: 20, afterId: null });
  });

  it('decodes the after cursor', () => {
    expect(toPageRequest({ limit: 5, after: encodeCursor(ID_A) })).toEqual({ limit: 5, afterId: ID_A });
  });

  it('rejects a garbage after cursor', () => {
    expectValidationError(() => toPageRequest({ limit: 5, after: 'not-a-cursor' }));
  });
});

describe('toPage', () => {
  const rows = ['txn_05', 'txn_04', 'txn_03', 'txn_02', 'txn_01'].map((id) => ({ id, value: id.slice(-1) }));
  const present = (row: { id: string; value: string }) => ({ shown: row.value });

  it('with limit + 1 rows: hasMore, the extra row dropped, next points at the last item shown', () => {
    const page = toPage(rows.slice(0, 3), { limit: 2, afterId: null }, present);
    expect(page.items).toEqual([{ shown: '5' }, { shown: '4' }]);
    expect(page.hasMore).toBe(true);
    expect(page.next).not.toBeNull();
    expect(Buffer.from(page.next as string, 'base64url').toString()).toBe('v1:txn_04');
  });

  it('with exactly limit rows: no more, next null', () => {
    expect(toPage(rows.slice(0, 2), { limit: 2, afterId: null }, present)).toEqual({
      items: [{ shown: '5' }, { shown: '4' }],
      hasMore: false,
      next: null,
    });
  });

  it('with fewer rows than limit: no more, next null', () => {
    expect(toPage(rows, { limit: 20, afterId: null }, present)).toEqual({
      items: [{ shown: '5' }, { shown: '4' }, { shown: '3' }, { shown: '2' }, { shown: '1' }],
      hasMore: false,
      next: null,
    });
  });

  it('with no rows: an empty page', () => {
    expect(toPage([], { limit: 20, afterId: null }, present)).toEqual({ items: [], hasMore: false, next: null });
  });

  it('with limit 1 and 2 rows: one item and a cursor to it', () => {
    const realIds = [{ id: 'txn_01JD2Z3M4N5P6Q7R8S9T0V1W2Y' }, { id: ID_A }];
    const page = toPage(realIds, { limit: 1, afterId: null }, (row) => row.id);
    expect(page.items).toEqual(['txn_01JD2Z3M4N5P6Q7R8S9T0V1W2Y']);
    expect(page.hasMore).toBe(true);
    expect(decodeCursor(page.next as string)).toBe('txn_01JD2Z3M4N5P6Q7R8S9T0V1W2Y');
  });
});
