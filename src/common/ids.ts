import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_CHARS = 16; // 80 bits

let lastMillis = -1;
let lastRandom = 0n;

/**
 * A new id `<prefix>_<26 chars>`: 10 chars of millisecond time then 16 random chars, Crockford
 * base32. Ids of one table sort by creation time (monotonic within this process), which is what lets
 * lists page by `id < cursor` on an index: a page costs the same at any table size.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now <= lastMillis) {
    lastRandom += 1n;
  } else {
    lastMillis = now;
    lastRandom = BigInt(`0x${randomBytes(10).toString('hex')}`) >> 1n; // headroom for increments
  }
  return `${prefix}_${encode(BigInt(lastMillis), 10)}${encode(lastRandom, RANDOM_CHARS)}`;
}

function encode(value: bigint, length: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < length; i += 1) {
    out = CROCKFORD[Number(rest & 31n)] + out;
    rest >>= 5n;
  }
  return out;
}
