/**
 * The synthetic copies `npm run bench:scale` multiplies the bulk data with: copy 1 is the data as indexed, copy
 * k >= 2 the same addresses and streets in a city renamed "<city>~k" (so "Groningen~2": clearly synthetic, and a
 * distinct city key the free-text reader knows), under new ids. Pure: the rewrite of one document; the bench
 * copies documents through it (bench/support/scaleIndexes.ts).
 */
import { createHash } from 'node:crypto';
import type { IndexKind } from '../../core/elasticsearch/documents.js';

/** Index kinds whose documents are copied per replica; the areas and buildings are copied once, unchanged. */
// Places (areas, streets, postcodes for the search box) are copied once: the synthetic cities add addresses and
// streets, not new place documents, so place queries at 2x/4x run on the 1x places index.
export const REPLICATED_KINDS: readonly IndexKind[] = ['addresses', 'streets'];

/** Alias prefix of the bench index at `size` times a dataset: its own prefix, apart from every other bench's. */
export function scalePrefix(dataset: string, size: number): string {
  return `bench-scale-${dataset}-x${size}-`;
}

/** "Groningen" -> "Groningen~2". */
export function replicaCity(city: string, copy: number): string {
  return `${city}~${copy}`;
}

/** normaliseText(replicaCity(city, copy)) from the city's key: "~" is punctuation, so it becomes a space. */
export function replicaCityKey(cityKey: string, copy: number): string {
  return cityKey ? `${cityKey} ${copy}` : String(copy);
}

/** A UUID shape (version 5, RFC variant) from the SHA-1 of "<id>~<copy>": as long and as random as real ids. */
export function replicaId(id: string, copy: number): string {
  const h = createHash('sha1').update(`${id}~${copy}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The fields a replica changes; every other field (street, number, postcode, location, parents) is kept. */
interface ReplicatedFields {
  id: string;
  source_key: string;
  city: string;
  city_key: string;
}

export function replicaDocument<T extends ReplicatedFields>(doc: T, copy: number): T {
  if (copy < 2) return doc;
  return {
    ...doc,
    id: replicaId(doc.id, copy),
    source_key: `${doc.source_key}~${copy}`,
    city: replicaCity(doc.city, copy),
    city_key: replicaCityKey(doc.city_key, copy),
  };
}

/**
 * The source records of copy k >= 2 for the real indexer (`bench:scale --build indexer`): the same row with the
 * source id "<id>~k" and the city "<city>~k", so the indexer derives the same replica city and keys as the copy.
 */
export function replicaSourceRow(
  row: Record<string, string>,
  copy: number,
  columns: { sourceId: string; city: string },
): Record<string, string> {
  if (copy < 2) return row;
  return {
    ...row,
    [columns.sourceId]: `${row[columns.sourceId] ?? ''}~${copy}`,
    [columns.city]: replicaCity(row[columns.city] ?? '', copy),
  };
}
