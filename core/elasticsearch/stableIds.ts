/**
 * The stable identifiers both the indexer (which writes them) and the service (which names a document it did not
 * read, such as the street of an address) derive: UUID v5 over a name, so the same data always gets the same ids and
 * clients' stored ids survive a reindex. Changing the namespace would change every id: never do it.
 */
import { hash } from 'node:crypto';

export const ID_NAMESPACE = '4f7d5c1e-2b8a-5e39-9c61-0d3a8e2f7b14';
const NAMESPACE_BYTES = Buffer.from(ID_NAMESPACE.replaceAll('-', ''), 'hex');

/** The message buffer (namespace, then the UTF-8 name), reused and grown for a longer name. */
let message = Buffer.alloc(256);

/**
 * RFC 9562 UUID version 5 (SHA-1 over the namespace and the UTF-8 name), the same as the `uuid` package's v5 (a
 * unit test pins the two together). Not through that package: it parses the namespace text twice and encodes the
 * name through `unescape(encodeURIComponent())` on every call, a tenth of the indexer's own time per address row;
 * node:crypto's one-shot `hash` over a reused buffer costs less than half of it (measured: 200k ids 558-716 ms
 * against 1,244-1,798 ms).
 */
export function uuidv5(name: string): string {
  const maxLength = 16 + name.length * 3;
  if (message.length < maxLength) message = Buffer.alloc(maxLength * 2);
  NAMESPACE_BYTES.copy(message, 0);
  const nameLength = message.write(name, 16, 'utf8');
  const digest = hash('sha1', message.subarray(0, 16 + nameLength), 'buffer');
  digest[6] = ((digest[6] as number) & 0x0f) | 0x50;
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80;
  const hex = digest.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A street of the streets index: one per street key and city key (not a dataset level, so its own scheme). */
export function streetSourceKey(streetKey: string, cityKey: string): string {
  return `streets:${streetKey}|${cityKey}`;
}

export function streetId(streetKey: string, cityKey: string): string {
  return uuidv5(streetSourceKey(streetKey, cityKey));
}

/** A postcode place: readable, and per country (a 4-digit area such as 1050 exists in NL and BE). */
export function postcodePlaceId(country: string, postcode: string): string {
  return `postcode:${country || 'XX'}:${postcode}`;
}
