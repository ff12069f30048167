/** Source row → AddressDoc without its parents (pure). */
import type { Geometry } from 'geojson';
import type { AddressDoc, SourceIds } from '../../core/elasticsearch/documents.js';
import { coordinateInRange, parseCoordinate } from '../geometry/checks.js';
import { addressKey, sourceKey, stableId } from '../ids.js';
import type { AddressSource, FieldSpec } from '../manifestSources.js';
import { type Outcome, reject } from '../rejectReasons.js';
import {
  formatSuffix,
  normalisePostcode,
  normaliseStreet,
  normaliseText,
  parseHouseNumber,
  parseHouseNumberParts,
  streetKey,
  suffixKey,
} from '../text.js';
import { type Properties, readField } from './fields.js';

function locate(
  props: Properties,
  geometry: Geometry | null | undefined,
  fields: AddressSource['fields'],
): Outcome<{ lon: number; lat: number }> {
  let lon: number | undefined;
  let lat: number | undefined;
  if (fields.lon !== undefined && fields.lat !== undefined) {
    lon = parseCoordinate(readField(props, fields.lon));
    lat = parseCoordinate(readField(props, fields.lat));
  } else if (geometry?.type === 'Point' && Array.isArray(geometry.coordinates)) {
    lon = typeof geometry.coordinates[0] === 'number' ? geometry.coordinates[0] : undefined;
    lat = typeof geometry.coordinates[1] === 'number' ? geometry.coordinates[1] : undefined;
  } else if (geometry) {
    return reject('invalid_geometry', `address geometry is a ${geometry.type}, not a Point`);
  }
  if (lon === undefined || lat === undefined) return reject('missing_coordinate', 'lon or lat is empty');
  if (!coordinateInRange(lon, lat)) return reject('coordinate_out_of_range', `lon ${lon}, lat ${lat}`);
  return { ok: true, value: { lon, lat } };
}

/** The source's own ids the manifest (or the official format) maps; undefined when none has a value. */
export function readSourceIds(props: Properties, specs: AddressSource['fields']['sourceIds']): SourceIds | undefined {
  if (!specs) return undefined;
  let ids: SourceIds | undefined;
  for (const [name, spec] of Object.entries(specs) as [keyof SourceIds, FieldSpec][]) {
    const value = readField(props, spec);
    if (value) (ids ??= {})[name] = value;
  }
  return ids;
}

export function addressFromRecord(
  props: Properties,
  geometry: Geometry | null | undefined,
  fields: AddressSource['fields'],
): Outcome<AddressDoc> {
  const location = locate(props, geometry, fields);
  if (!location.ok) return location;

  const streetname = readField(props, fields.street);
  const street_key = streetname ? streetKey(streetname) : '';
  if (!street_key) return reject('missing_street', 'street is empty');

  const rawNumber = readField(props, fields.number);
  const split = fields.letter !== undefined || fields.addition !== undefined;
  const parsed = split
    ? parseHouseNumberParts(rawNumber, readField(props, fields.letter), readField(props, fields.addition))
    : parseHouseNumber(rawNumber);
  if (!parsed) {
    const shown = split
      ? [rawNumber, readField(props, fields.letter), readField(props, fields.addition)].join('|')
      : rawNumber;
    return reject('unparsable_house_number', `house number "${shown}"`);
  }

  const postcode = readField(props, fields.postcode);
  const city = readField(props, fields.city);
  const number = String(parsed.number);
  const suffix_key = suffixKey(parsed);
  const postcode_key = normalisePostcode(postcode);
  const city_key = normaliseText(city);
  const key = addressKey({
    streetKey: street_key,
    number,
    suffixKey: suffix_key,
    postcodeKey: postcode_key,
    cityKey: city_key,
  });

  const sourceIds = readSourceIds(props, fields.sourceIds);
  return {
    ok: true,
    value: {
      id: stableId('addresses', key),
      source_key: sourceKey('addresses', key),
      ...(sourceIds ? { source_ids: sourceIds } : {}),
      streetname,
      street_key,
      street_text: normaliseStreet(streetname),
      house_number: parsed.number,
      number,
      letter: parsed.letter,
      addition: parsed.addition,
      suffix_key,
      suffix: formatSuffix(parsed.letter, parsed.addition),
      postcode,
      postcode_key,
      city,
      city_key,
      location: location.value,
      country_id: '',
      province_id: '',
      municipality_id: '',
      city_id: '',
      suburb_id: '',
      building_id: '',
    },
  };
}
