const CROCKFORD_ID_BODY = /^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{26}$/;

/** A fresh copy of the module, so its "last millisecond" state starts empty. */
function freshNewId(): (prefix: string) => string {
  let loaded: (prefix: string) => string = () => '';
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = (require('./ids') as typeof import('./ids')).newId;
  });
  return loaded;
}

describe('newId', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is "<prefix>_" and a 26-character Crockford base32 body', () => {
    const newId = freshNewId();
    for (const prefix of ['cust', 'store', 'pix_char', 'req']) {
      const id = newId(prefix);
      expect(id.startsWith(`${prefix}_`)).toBe(true);
      const body = id.slice(prefix.length + 1);
      expect(body).toMatch(CROCKFORD_ID_BODY);
      expect(body).not.toMatch(/[ILOU]/);
    }
  });

  it('encodes the millisecond time in the first 10 characters', () => {
    const newId = freshNewId();
    jest.spyOn(Date, 'now').mockReturnValue(0);
    expect(newId('t').slice(2, 12)).toBe('0000000000');
    (Date.now as jest.Mock).mockReturnValue(1);
    expect(newId('t').slice(2, 12)).toBe('0000000001');
    (Date.now as jest.Mock).mockReturnValue(32); // 1 × 32¹ + 0
    expect(newId('t').slice(2, 12)).toBe('0000000010');
    (Date.now as jest.Mock).mockReturnValue(1_000_000); // 30·32³ + 16·32² + 18·32 + 0 → "YGJ0"
    expect(newId('t').slice(2, 12)).toBe('000000YGJ0');
  });

  it('generates 10 000 unique, strictly increasing ids in a tight loop', () => {
    const newId = freshNewId();
    const ids: string[] = [];
    for (let i = 0; i < 10_000; i += 1) ids.push(newId('cust'));
    expect(new Set(ids).size).toBe(10_000);
    for (let i = 1; i < ids.length; i += 1) {
      if (!(ids[i] > ids[i - 1])) throw new Error(`id ${i} (${ids[i]}) does not sort after ${ids[i - 1]}`);
    }
    expect(ids.every((id) => CROCKFORD_ID_BODY.test(id.slice(5)))).toBe(true);
  });

  it('stays increasing within one millisecond and when the clock steps back', () => {
    const newId = freshNewId();
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const first = newId('evt');
    const second = newId('evt'); // same millisecond
    now.mockReturnValue(1_699_999_999_000); // clock stepped back one second
    const third = newId('evt');
    expect(second > first).toBe(true);
    expect(third > second).toBe(true);
    expect(third.slice(0, 14)).toBe(first.slice(0, 14)); // keeps the newest time seen
    now.mockReturnValue(1_700_000_000_001);
    const fourth = newId('evt');
    expect(fourth > third).toBe(true);
    expect(fourth.slice(0, 14)).not.toBe(first.slice(0, 14));
  });

  it('differs between two fresh processes in the same millisecond (random part)', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const a = freshNewId()('cust');
    const b = freshNewId()('cust');
    expect(a.slice(0, 15)).toBe(b.slice(0, 15));
    expect(a).not.toBe(b);
  });
});
