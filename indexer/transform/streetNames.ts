/**
 * Street names in other languages (the manifest's `streetNames` on an address source): a table of one row per
 * street and scope (Brussels: municipality NIS code and Dutch name -> French name and alternatives), joined to
 * each address by its street key within its scope. Pure: built from rows the loader has read; every key is built
 * once per table row, so an address costs two map look-ups.
 */
import type { AddressDoc } from '../../core/elasticsearch/documents.js';
import type { StreetNamesSpec } from '../manifest/manifestSources.js';
import { type Names, otherNames } from '../records/names.js';
import { normaliseStreet, normaliseText, streetKey } from '../base/text.js';
import { type Properties, readField } from './fields.js';

type Row = Record<string, string>;

/** What a joined address carries: AddressDoc's multilingual fields. */
export type StreetNameEntry = Required<Pick<AddressDoc, 'street_names' | 'other_street_keys' | 'other_street_text'>>;

export class StreetNameTable {
  private readonly entries = new Map<string, StreetNameEntry>();
  /** normaliseText(lookup key) -> normaliseText(scope value), when the scope goes through a lookup table. */
  private readonly scopeLookup: Map<string, string> | undefined;
  /** The address's raw scope value -> its scope key (few distinct values: city names). */
  private readonly scopeCache = new Map<string, string>();

  constructor(
    private readonly spec: StreetNamesSpec,
    rows: readonly Row[],
    lookupRows: readonly Row[] = [],
  ) {
    const lookup = spec.within?.lookup;
    if (lookup) {
      this.scopeLookup = new Map();
      for (const row of lookupRows) {
        const key = normaliseText(row[lookup.key] ?? '');
        if (key && !this.scopeLookup.has(key)) this.scopeLookup.set(key, normaliseText(row[lookup.value] ?? ''));
      }
    }
    for (const row of rows) {
      const own = (row[spec.street] ?? '').trim();
      const ownKey = streetKey(own);
      if (!ownKey) continue;
      const scope = spec.within ? normaliseText(row[spec.within.column] ?? '') : '';
      const key = `${scope}\u0000${ownKey}`;
      if (!this.entries.has(key)) this.entries.set(key, this.entryOf(row, own, ownKey));
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private entryOf(row: Row, own: string, ownKey: string): StreetNameEntry {
    const names: Names = { [this.spec.language]: own };
    const spellings: string[] = [];
    for (const [language, column] of Object.entries(this.spec.names)) {
      const name = (row[column] ?? '').trim();
      if (!name || language === this.spec.language) continue;
      names[language] = name;
      spellings.push(name);
    }
    for (const column of Object.values(this.spec.alternatives ?? {})) {
      for (const part of (row[column] ?? '').split(this.spec.separator)) spellings.push(part.trim());
    }
    const others = otherNames(ownKey, spellings, streetKey);
    return {
      street_names: names,
      other_street_keys: others.map(streetKey),
      other_street_text: others.map(normaliseStreet),
    };
  }

  private scopeOf(props: Properties): string {
    const within = this.spec.within;
    if (!within) return '';
    const raw = readField(props, within.field);
    let scope = this.scopeCache.get(raw);
    if (scope === undefined) {
      const key = normaliseText(raw);
      scope = this.scopeLookup ? (this.scopeLookup.get(key) ?? '') : key;
      this.scopeCache.set(raw, scope);
    }
    return scope;
  }

  /** The entry for an address (its source properties and street key), or undefined when the table has none. */
  join(props: Properties, street_key: string): StreetNameEntry | undefined {
    return this.entries.get(`${this.scopeOf(props)}\u0000${street_key}`);
  }
}

/** Puts a joined entry's names on the address document (only where it has another name: Dutch-only data stays as it was). */
export function applyStreetNames(doc: AddressDoc, entry: StreetNameEntry): void {
  doc.street_names = entry.street_names;
  if (entry.other_street_keys.length) {
    doc.other_street_keys = entry.other_street_keys;
    doc.other_street_text = entry.other_street_text;
  }
}
