/**
 * Which OSM `admin_level` feeds which of our area levels, per country (ISO 3166-1 alpha-2), after the OSM wiki's
 * admin_level table (wiki.openstreetmap.org/wiki/Tag:boundary=administrative, "admin_level" per country). A source
 * may name its own levels instead (`"osm": { "adminLevels": [6] }`); a country not listed here gets DEFAULT.
 */
import type { AreaLevelName } from '../../base/levels.js';

export type AdminLevelTable = Partial<Record<AreaLevelName, number[]>>;

export const DEFAULT_ADMIN_LEVELS: AdminLevelTable = { countries: [2], provinces: [4], municipalities: [8] };

export const ADMIN_LEVELS: Record<string, AdminLevelTable> = {
  /** 4 provincie, 8 gemeente, 10 woonplaats. */
  NL: { countries: [2], provinces: [4], municipalities: [8], cities: [10] },
  /** 4 gewest (Brussels-Capital has no province), 6 provincie/province, 8 gemeente/commune, 9 deelgemeente/section. */
  BE: { countries: [2], provinces: [6], municipalities: [8], cities: [9] },
  /** 6 Wahlkreis (Oberland, Unterland), 8 Gemeinde (11). */
  LI: { countries: [2], provinces: [6], municipalities: [8] },
  /** 4 Bundesland, 8 Gemeinde, 10 Ortsteil (6 Kreis and 9 Stadtbezirk are left out: one suburb level). */
  DE: { countries: [2], provinces: [4], municipalities: [8], suburbs: [10] },
  /** 6 canton, 8 commune. */
  LU: { countries: [2], provinces: [6], municipalities: [8] },
};

/** The admin levels that feed `level` for `country` (or the source's own), empty when none does. */
export function adminLevelsFor(level: AreaLevelName, country: string | undefined, own?: number[]): number[] {
  if (own) return own;
  const table = (country && ADMIN_LEVELS[country.toUpperCase()]) || DEFAULT_ADMIN_LEVELS;
  return table[level] ?? [];
}
