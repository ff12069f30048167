/** The search box's domain results (SearchBoxResult) for the dialects' unit tests: an address hit and a place. */
import type { AddressHit } from '../../src/features/search/searchBox.js';
import type { PlaceResult } from '../../src/features/places/placeRecords.js';
import type { MatchCodes } from '../../src/features/address/matchQuality.js';

export interface AddressFields {
  id: string;
  suburb_id?: string;
  building_id?: string;
  number: string;
  suffix: string;
  streetname: string;
  postcode: string;
  city: string;
  longitude: number;
  latitude: number;
  confidence: number;
  match: MatchCodes;
}

/** An address the text was read as: its document at its point, with its grade. */
export function addressHit({ confidence, match, longitude, latitude, ...doc }: AddressFields): AddressHit {
  const location = { lon: longitude, lat: latitude };
  return {
    type: 'address',
    confidence,
    match,
    doc: { suburb_id: '', building_id: '', ...doc, location } as AddressHit['doc'],
  };
}

/** A place: what is not given is empty. */
export function place(
  p: Pick<
    PlaceResult,
    'type' | 'label' | 'id' | 'longitude' | 'latitude' | 'bbox' | 'address_count' | 'match' | 'confidence'
  > &
    Partial<PlaceResult>,
): PlaceResult {
  return {
    name: '',
    names: {},
    local_identifier: '',
    parents: { city: '', municipality: '', province: '', country: '' },
    country: '',
    streetname: '',
    city: '',
    postcode: '',
    ...p,
  };
}
