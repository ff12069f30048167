/**
 * Reads BeST Address's CSV as published (bestLayout.ts): the CSV reader's records (csv.ts: encoding, line and
 * damage checks) turned into address records with the street and municipality in the address's primary language,
 * every language's street name, the box number and the BeST ids; statuses other than `current` skipped and counted.
 */
import { readCsv, readCsvHeader } from '../csv.js';
import { propertyText } from '../../base/properties.js';
import { type ReadOptions, SourceFileError, type SourceItem } from '../types.js';
import {
  BEST_STATUSES_KEPT,
  type BestColumn,
  type Language,
  nameIn,
  primaryLanguage,
  resolveColumns,
} from './bestLayout.js';
import { countStatus, statusFilter } from '../statuses.js';

export interface BestReadOptions extends ReadOptions {
  keep?: readonly string[] | undefined;
}

/** What is wrong with the file's header for a BeST reader (empty: nothing), naming the file and the columns. */
export async function bestProblems(path: string): Promise<string[]> {
  try {
    const header = await readCsvHeader(path, {});
    const { missing } = resolveColumns(header);
    if (!missing.length) return [];
    return [
      `${path}: not a BeST Address CSV: column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing; the file's columns: ${header.join(', ')}`,
    ];
  } catch (error) {
    return [(error as Error).message];
  }
}

export async function* readBest(path: string, options: BestReadOptions = {}): AsyncGenerator<SourceItem> {
  const keep = statusFilter(options.keep ?? BEST_STATUSES_KEPT);
  let columns: Record<BestColumn, string> | undefined;
  for await (const item of readCsv(path, { ...options, delimiter: ',' })) {
    if (item.error) {
      yield item;
      continue;
    }
    if (!columns) {
      const resolved = resolveColumns(Object.keys(item.props));
      if (resolved.missing.length) {
        throw new SourceFileError(path, `${path}: not a BeST Address CSV: ${resolved.missing.join(', ')} missing`);
      }
      columns = resolved.columns;
    }
    const c = columns;
    const get = (column: BestColumn) => propertyText(item.props, c[column]);
    const status = get('status');
    const kept = keep(status);
    countStatus(options.stats, kept, status);
    const nis = get('municipality_id');
    const language = primaryLanguage(get('region_code'), nis);
    const streets: Record<Language, string> = {
      nl: get('streetname_nl'),
      fr: get('streetname_fr'),
      de: get('streetname_de'),
    };
    const municipality: Record<Language, string> = {
      nl: get('municipality_name_nl'),
      fr: get('municipality_name_fr'),
      de: get('municipality_name_de'),
    };
    const street = nameIn(streets, language);
    const props = {
      address_id: get('address_id'),
      status,
      house_number: get('house_number'),
      box_number: get('box_number'),
      postcode: get('postcode'),
      municipality_id: nis,
      lat: get('EPSG:4326_lat'),
      lon: get('EPSG:4326_lon'),
      street: street.name,
      street_language: street.language,
      city: nameIn(municipality, language).name,
      streetname_nl: streets.nl,
      streetname_fr: streets.fr,
      streetname_de: streets.de,
    };
    yield kept ? { position: item.position, props } : { position: item.position, props, skip: true };
  }
}
