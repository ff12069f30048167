/**
 * The generation's attribution table from its manifest (pure): one entry per source that names its credit, at the
 * level it feeds; a source's street-names table at the addresses' level, in their countries; derived cities credited
 * as the addresses they are made from. Kept in every index's `_meta` (indexer/pipeline/completion.ts) and read by
 * the service once per generation (src/indexes/attribution.ts).
 */
import type { SourceAttribution } from '../../core/elasticsearch/attribution.js';
import { LEVELS } from '../base/levels.js';
import type { Manifest } from './manifestSchema.js';

export function attributionOf(manifest: Manifest): SourceAttribution[] {
  const out: SourceAttribution[] = [];
  const add = (entry: SourceAttribution) => {
    const same = (e: SourceAttribution) =>
      e.level === entry.level && e.text === entry.text && String(e.countries) === String(entry.countries);
    if (!out.some(same)) out.push(entry);
  };
  // The addresses' own sources (what derived cities are named from), and with them their street names' tables.
  const addresses: SourceAttribution[] = [];
  const streetNames: SourceAttribution[] = [];
  for (const source of manifest.levels.addresses ?? []) {
    const countries = withCountries(source.attribution?.countries);
    if (source.attribution) addresses.push({ level: 'addresses', ...countries, text: source.attribution.text });
    const names = source.streetNames?.attribution;
    if (names) streetNames.push({ level: 'addresses', ...countries, text: names });
  }
  for (const level of LEVELS) {
    for (const source of manifest.levels[level] ?? []) {
      if (source.format === 'derived') {
        for (const a of addresses) add({ ...a, level });
      } else if (level === 'addresses') {
        continue;
      } else if (source.attribution) {
        add({ level, ...withCountries(source.attribution.countries), text: source.attribution.text });
      }
    }
  }
  for (const a of [...addresses, ...streetNames]) add(a);
  return out;
}

const withCountries = (countries: string[] | undefined) => (countries ? { countries: [...countries] } : {});
