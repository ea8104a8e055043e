/**
 * Pix "copia e cola" payloads: EMV QRCPS-MPM as the Banco Central's BR Code manual specifies. Each field
 * is ID (2 digits) + length (2 digits) + value; the payload ends with field 63, a CRC16-CCITT-FALSE
 * (poly 0x1021, init 0xFFFF) over everything before its value, in upper-case hex.
 */
export interface BrCodeInput {
  /** The receiver's Pix key (for the sandbox, a random key per store). */
  pixKey: string;
  /** Centavos. */
  amount: number;
  merchantName: string;
  merchantCity: string;
  /** Transaction id, 1–25 of A-Z a-z 0-9. */
  txid: string;
  description?: string;
}

const field = (id: string, value: string): string => {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
};

/** EMV text fields take plain ASCII: accents are dropped, other characters replaced by spaces. */
const ascii = (text: string, max: number): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .,\-/]/g, ' ')
    .trim()
    .slice(0, max) || 'NA';

export function crc16CcittFalse(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function buildBrCode(input: BrCodeInput): string {
  if (!/^[A-Za-z0-9]{1,25}$/.test(input.txid)) throw new Error('txid must be 1–25 letters or digits');
  const keyFields = field('00', 'br.gov.bcb.pix') + field('01', input.pixKey);
  // Field 26 holds at most 99 characters: the description gets what the key leaves (37 with an EVP key).
  const descriptionRoom = Math.min(40, 99 - keyFields.length - 4);
  const merchantAccount =
    keyFields + (input.description && descriptionRoom > 0 ? field('02', ascii(input.description, descriptionRoom)) : '');
  const payload =
    field('00', '01') +
    field('01', '12') +
    field('26', merchantAccount) +
    field('52', '0000') +
    field('53', '986') +
    field('54', (input.amount / 100).toFixed(2)) +
    field('58', 'BR') +
    field('59', ascii(input.merchantName, 25)) +
    field('60', ascii(input.merchantCity, 15)) +
    field('62', field('05', input.txid)) +
    '6304';
  return payload + crc16CcittFalse(payload);
}

/** Reads the top-level fields of a BR Code back (for checks and tests). */
export function parseEmv(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < payload.length) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || Number.isNaN(length)) throw new Error(`malformed EMV field at ${at}`);
    fields.set(id, payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}
