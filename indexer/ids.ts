/**
 * Stable identifiers: UUID v5 over `<level>:<source key>`, so the same data always gets the same ids
 * and clients' stored ids survive a reindex. Changing the namespace would change every id: never do it.
 */
import type { LevelName } from './levels.js';

export const ID_NAMESPACE = '4f7d5c1e-2b8a-5e39-9c61-0d3a8e2f7b14';
const NAMESPACE_BYTES = Buffer.from(ID_NAMESPACE.replaceAll('-', ''), 'hex');
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The message buffer, reused (grown for a longer name): namespace, UTF-8 name, SHA-1 padding. */
let message = Buffer.alloc(128);
const words = new Int32Array(80);

/**
 * SHA-1 of the namespace followed by the name's UTF-8 bytes, into `out` (five words). In JavaScript because
 * node:crypto's per-call cost (a native hash object for 60 bytes) is most of the price of an id.
 */
function sha1(nameLength: number, out: Int32Array): void {
  const length = 16 + nameLength;
  const blocks = ((length + 8) >>> 6) + 1;
  const m = message;
  m.fill(0, length, blocks * 64);
  m[length] = 0x80;
  // Message length in bits, big-endian, in the last 8 bytes (names are far below 2^29 bytes).
  m.writeUInt32BE(length * 8, blocks * 64 - 4);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  const w = words;
  for (let block = 0; block < blocks; block++) {
    const base = block * 64;
    for (let i = 0; i < 16; i++) w[i] = m.readInt32BE(base + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = (w[i - 3] as number) ^ (w[i - 8] as number) ^ (w[i - 14] as number) ^ (w[i - 16] as number);
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      let f: number;
      let k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc | 0;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6 | 0;
      }
      const t = (((a << 5) | (a >>> 27)) + f + e + k + (w[i] as number)) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  out[0] = h0;
  out[1] = h1;
  out[2] = h2;
  out[3] = h3;
  out[4] = h4;
}

const digest = new Int32Array(5);
const digestBytes = new Uint8Array(20);

/**
 * RFC 9562 UUID version 5 (SHA-1 over the namespace and the UTF-8 name), the same as the `uuid` package's v5 (a
 * unit test pins the two together). Computed here because that one costs several microseconds an address (it
 * parses the namespace text twice and encodes the name through `unescape(encodeURIComponent())` on every call,
 * then hashes through node:crypto): a tenth of the indexer's own time per address row.
 */
export function uuidv5(name: string): string {
  const maxLength = 16 + name.length * 3 + 72;
  if (message.length < maxLength) message = Buffer.alloc(maxLength * 2);
  NAMESPACE_BYTES.copy(message, 0);
  const nameLength = message.write(name, 16, 'utf8');
  sha1(nameLength, digest);
  const view = new DataView(digestBytes.buffer);
  for (let i = 0; i < 5; i++) view.setInt32(i * 4, digest[i] as number);
  const b = digestBytes;
  const h = (i: number) => HEX[b[i] as number] as string;
  const b6 = HEX[((b[6] as number) & 0x0f) | 0x50] as string;
  const b8 = HEX[((b[8] as number) & 0x3f) | 0x80] as string;
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${b6}${h(7)}-${b8}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}

export function sourceKey(level: LevelName, key: string): string {
  return `${level}:${key}`;
}

export function stableId(level: LevelName, key: string): string {
  return uuidv5(sourceKey(level, key));
}

export interface AddressKeyParts {
  streetKey: string;
  number: string;
  suffixKey: string;
  postcodeKey: string;
  cityKey: string;
}

/**
 * An address is identified by its normalised full address, not by the source row: OSM repeats an
 * address on every shop in a building, and the same _id makes Elasticsearch keep one of them
 * without the indexer having to remember what it has seen.
 */
export function addressKey(p: AddressKeyParts): string {
  return [p.streetKey, p.number, p.suffixKey, p.postcodeKey, p.cityKey].join('|');
}

/** A city derived from address city names: one per normalised name within its parent area. */
export function derivedCityKey(nameKey: string, parentSourceKey: string): string {
  return `${nameKey}@${parentSourceKey}`;
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
