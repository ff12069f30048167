/**
 * BeST Address's CSV as BOSA exports it (`openaddress-bebru.csv`, `-bevlg.csv`, `-bewal.csv`; Fedict/best-tools'
 * CSV writer): the columns read, by name (the Lambert 72 columns, `EPSG:31370_*`, changed name between releases and
 * are never read; positions come from `EPSG:4326_lat`/`EPSG:4326_lon`), which statuses are read and each address's
 * primary language (pure).
 */

/** The columns a BeST reader needs; header names compare case-insensitively (releases changed their case). */
export const BEST_COLUMNS = [
  'EPSG:4326_lat',
  'EPSG:4326_lon',
  'address_id',
  'box_number',
  'house_number',
  'municipality_id',
  'municipality_name_nl',
  'municipality_name_fr',
  'municipality_name_de',
  'postcode',
  'streetname_nl',
  'streetname_fr',
  'streetname_de',
  'region_code',
  'status',
] as const;
export type BestColumn = (typeof BEST_COLUMNS)[number];

/**
 * Statuses read by default: `current` only. BeST also publishes `proposed` and `reserved` (numbers a municipality
 * has set aside, not yet addresses anyone lives at) and `retired` (withdrawn): counted and skipped.
 */
export const BEST_STATUSES_KEPT = ['current'] as const;

/**
 * The nine municipalities of the German-speaking Community (NIS codes, Statbel's REFNIS; language regime `Gf`):
 * German is their primary language, the rest of Wallonia's is French.
 */
const GERMAN_SPEAKING = new Set(['63001', '63012', '63013', '63023', '63040', '63048', '63061', '63067', '63087']);

export type Language = 'nl' | 'fr' | 'de';
const ORDER: Record<Language, readonly Language[]> = {
  nl: ['nl', 'fr', 'de'],
  fr: ['fr', 'nl', 'de'],
  de: ['de', 'fr', 'nl'],
};

/**
 * The language an address is shown in: Dutch in Flanders, French in Wallonia, German in the German-speaking
 * municipalities, Dutch in bilingual Brussels (as the sample's Brussels addresses and municipalities; the French
 * names are searchable and shown with `lang=fr`). An unknown region code falls back on the NIS code's province.
 */
export function primaryLanguage(regionCode: string, nis: string): Language {
  if (GERMAN_SPEAKING.has(nis)) return 'de';
  const region = regionCode.trim().toUpperCase();
  if (region === 'BE-WAL') return 'fr';
  if (region === 'BE-VLG' || region === 'BE-BRU') return 'nl';
  // NIS provinces: 25 Walloon Brabant, 5x Hainaut, 6x Liège, 8x Luxembourg, 9x Namur.
  return /^(25|5|6|8|9)/.test(nis) ? 'fr' : 'nl';
}

/** The name in `language`, else in the next language the region would use, else ''. */
export function nameIn(names: Record<Language, string>, language: Language): { name: string; language: Language | '' } {
  for (const l of ORDER[language]) if (names[l]) return { name: names[l], language: l };
  return { name: '', language: '' };
}

/** The file's own spelling of each column the reader needs (header compared case-insensitively), or the missing ones. */
export function resolveColumns(header: readonly string[]): { columns: Record<BestColumn, string>; missing: string[] } {
  const byLower = new Map(header.map((h) => [h.trim().toLowerCase(), h]));
  const columns = {} as Record<BestColumn, string>;
  const missing: string[] = [];
  for (const c of BEST_COLUMNS) {
    const found = byLower.get(c.toLowerCase());
    if (found === undefined) missing.push(c);
    else columns[c] = found;
  }
  return { columns, missing };
}
