/**
 * Each document's content digest, written with it (`content_hash`: doc values only, left out of `_source` by every
 * mapping, so no answer ever shows it). `update` (indexer/update/) reads the live generation's digests and sends
 * only the documents whose digest differs. Pure.
 */
import { hash } from 'node:crypto';

export const CONTENT_HASH_FIELD = 'content_hash';

/** 64 bits of SHA-1 over the document's JSON, as 16 hex digits. */
export function contentDigest(json: string): string {
  return hash('sha1', json, 'hex').slice(0, 16);
}

/** The document's JSON (as serialised for the index) with its digest added, and the digest. */
export function withContentDigest(doc: object): { json: string; digest: string } {
  const json = JSON.stringify(doc);
  const digest = contentDigest(json);
  const body =
    json.length > 2
      ? `${json.slice(0, -1)},"${CONTENT_HASH_FIELD}":"${digest}"}`
      : `{"${CONTENT_HASH_FIELD}":"${digest}"}`;
  return { json: body, digest };
}
