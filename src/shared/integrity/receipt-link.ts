/**
 * The compact receipt a link to /verify carries in its URL fragment: `#r=<base64url of the receipt's
 * JSON>` (docs/integrity.md §9). Apart from receipt.ts so the modal, which builds such links, does not
 * load viem's RPC client with it.
 */
import type { ProofReceipt, ProofReceiptV2, ReceiptInput } from './receipt.ts';

/** The fragment parameter that carries a receipt. */
export const RECEIPT_FRAGMENT_KEY = 'r';

function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function base64UrlDecode(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * The fragment (without `#`) of a link to /verify carrying this receipt: the receipt as JSON without
 * whitespace, UTF-8, base64url without padding. A fragment is never sent to a server, so following
 * the link reveals nothing of the record to the site that serves the page.
 */
export function encodeReceiptFragment(receipt: ProofReceipt | ProofReceiptV2): string {
  const json = JSON.stringify(receipt);
  return `${RECEIPT_FRAGMENT_KEY}=${base64UrlEncode(new TextEncoder().encode(json))}`;
}

/**
 * The receipt a fragment (with or without its `#`) carries; null when it carries none. Throws when
 * it has an `r` that is not base64url JSON of an object (a damaged link should say so, not vanish).
 */
export function decodeReceiptFragment(fragment: string): ReceiptInput | null {
  const encoded = new URLSearchParams(fragment.replace(/^#/, '')).get(RECEIPT_FRAGMENT_KEY);
  if (encoded === null) return null;
  const json = new TextDecoder('utf-8', { fatal: true }).decode(base64UrlDecode(encoded));
  const receipt: unknown = JSON.parse(json);
  if (typeof receipt !== 'object' || receipt === null || Array.isArray(receipt)) {
    throw new Error('the link does not carry a receipt');
  }
  return receipt as ReceiptInput;
}
