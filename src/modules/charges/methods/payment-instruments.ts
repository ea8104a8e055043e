import { createHash } from 'node:crypto';
import { toDataURL } from 'qrcode';
import { buildBoleto, BoletoNumbers } from './boleto';
import { buildBrCode } from './pix-br-code';

/**
 * The payment instructions a buyer receives: a Pix BR Code with its QR image, or boleto numbers. There
 * is no real provider in this build, so the receiver is a sandbox one: a Pix key (random EVP format)
 * and a boleto free field derived from the store and the charge.
 */
const SANDBOX_BANK_CODE = '999';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** A stable EVP-format Pix key per store. */
export function sandboxPixKey(storeId: string): string {
  const hex = digest(`pix-key:${storeId}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function pixInstructions(input: {
  storeId: string;
  storeName: string;
  chargeId: string;
  amount: number;
  description?: string | null;
}): Promise<{ brCode: string; qrPng: string }> {
  const brCode = buildBrCode({
    pixKey: sandboxPixKey(input.storeId),
    amount: input.amount,
    merchantName: input.storeName,
    merchantCity: 'SAO PAULO',
    txid: input.chargeId.replace(/[^A-Za-z0-9]/g, '').slice(-25),
    description: input.description ?? undefined,
  });
  return { brCode, qrPng: await toDataURL(brCode, { errorCorrectionLevel: 'M', margin: 2, width: 280 }) };
}

export function boletoInstructions(input: { chargeId: string; amount: number; dueDate: string }): BoletoNumbers {
  const freeField = BigInt(`0x${digest(`boleto:${input.chargeId}`)}`).toString().slice(0, 25).padStart(25, '0');
  return buildBoleto({ bankCode: SANDBOX_BANK_CODE, dueDate: input.dueDate, amount: input.amount, freeField });
}
