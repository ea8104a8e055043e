import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './destination-guard';

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/** DNS lookup that refuses non-public answers: used for live endpoints, on the connection itself. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as LookupAddress[];
    const blocked = list.find((entry) => !isPublicAddress(entry.address));
    if (blocked || list.length === 0) {
      return callback(Object.assign(new Error(`destination ${hostname} resolves to a non-public address`), { code: 'EBLOCKED' }), '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/**
 * POSTs one delivery: no redirects followed, a hard timeout, the response body read and dropped (at
 * most 64 KiB). Any 2xx is success; the caller decides about the rest.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; publicOnly: boolean },
): Promise<SendResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const target = new URL(url);
    // A literal address is never looked up, so the lookup below cannot refuse it: check it here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (options.publicOnly && isIP(literal) !== 0 && !isPublicAddress(literal)) {
      resolve({ statusCode: null, durationMs: Date.now() - started, error: `destination ${literal} is a non-public address` });
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      resolve({ statusCode, durationMs: Date.now() - started, error });
    };
    const request = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: options.timeoutMs,
        lookup: options.publicOnly ? publicOnlyLookup : undefined,
      },
      (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('end', () => finish(response.statusCode ?? null, null));
        response.on('close', () => finish(response.statusCode ?? null, null));
        response.on('error', () => finish(response.statusCode ?? null, null));
      },
    );
    // A whole-attempt deadline: the socket's own timeout only counts silence, so a receiver dripping
    // bytes could otherwise hold a delivery for ever.
    const timeOut = () => {
      // Settle first: a 2xx status line followed by a body that never ends is a timeout, not a success.
      finish(null, `timed out after ${options.timeoutMs} ms`);
      request.destroy();
    };
    const deadline = setTimeout(timeOut, options.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', timeOut);
    request.on('error', (error: Error & { code?: string }) => finish(null, error.code === 'EBLOCKED' ? error.message : error.message || String(error.code)));
    request.end(body);
  });
}
