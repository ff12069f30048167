/**
 * The search box's results (SearchBoxResult) as GET /search's records: an address with its label and grade, a
 * place with the fields its type documents (placeRecords.ts). Pure; the GeoJSON form is this record at its point.
 */
import type { SearchResult } from '../../schemas/responses.js';
import { forwardRecord } from '../address/addressRecords.js';
import { searchRecord } from '../places/placeRecords.js';
import type { AddressHit, SearchBoxResult } from './searchBox.js';

/** "Mekelweg 8A, 2628CD Delft" */
export function addressLabel(a: {
  streetname: string;
  number: string;
  suffix: string;
  postcode: string;
  city: string;
}) {
  const place = [a.postcode, a.city].filter(Boolean).join(' ');
  return [`${a.streetname} ${a.number}${a.suffix}`.trim(), place].filter(Boolean).join(', ');
}

export function addressSearchRecord(answer: AddressHit): SearchResult {
  const record = forwardRecord(answer);
  return { type: 'address', label: addressLabel(record), ...record };
}

/** One result as GET /search answers it. */
export const searchBoxRecord = (r: SearchBoxResult): SearchResult =>
  r.type === 'address' ? addressSearchRecord(r) : searchRecord(r);

/** GET /search's body. */
export const searchBoxRecords = (results: readonly SearchBoxResult[]): SearchResult[] => results.map(searchBoxRecord);
