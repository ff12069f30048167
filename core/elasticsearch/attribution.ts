/**
 * Whom an index generation's data comes from: per level (the hierarchy's areas, buildings, addresses), the
 * attribution each source asks for and the countries its data lies in. The indexer writes it from the manifest
 * into every index's `_meta.indexer.attribution`; the service reads it once per generation, so that an answer names
 * the sources of what it shows (a Brussels address BeST Address / UrbIS, a Delft one its own source), not every
 * source the service was ever loaded from.
 */

/** The levels a source feeds, as the manifest names them. Streets and postcodes are made from the addresses. */
export const ATTRIBUTED_LEVELS = [
  'countries',
  'provinces',
  'municipalities',
  'cities',
  'suburbs',
  'buildings',
  'addresses',
] as const;
export type AttributedLevel = (typeof ATTRIBUTED_LEVELS)[number];

export interface SourceAttribution {
  level: AttributedLevel;
  /** ISO 3166-1 alpha-2 codes, upper case, of the countries its data lies in; absent: any (a world-wide file). */
  countries?: string[];
  /** What the source asks to be credited with: `© OpenStreetMap contributors, ODbL 1.0`. */
  text: string;
}
