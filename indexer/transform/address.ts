/** Source row → AddressDoc without its parents (pure). */
import type { Geometry } from 'geojson';
import type { AddressDoc, SourceIds } from '../../core/elasticsearch/documents.js';
import { coordinateInRange, parseCoordinate } from '../geometry/checks.js';
import { addressKey, sourceKey, stableId } from '../records/ids.js';
import type { AddressSource, FieldSpec } from '../manifest/manifestSources.js';
import { type Outcome, reject } from '../base/rejectReasons.js';
import {
  formatSuffix,
  normalisePostcode,
  normaliseStreet,
  normaliseText,
  parseHouseNumber,
  parseHouseNumberParts,
  streetKey,
  suffixKey,
} from '../base/text.js';
import { type Properties, readField } from './fields.js';
import { otherNames } from '../records/names.js';
import type { StreetNameEntry } from './streetNames.js';

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

/**
 * The street's names per language read from the record itself (`streetNamesByLanguage`): the shown name's language
 * first, the others as searchable other names. Undefined when the record names the street in one language only.
 */
export function recordStreetNames(
  props: Properties,
  fields: AddressSource['fields'],
  streetname: string,
  street_key: string,
): StreetNameEntry | undefined {
  if (!fields.streetNamesByLanguage) return undefined;
  const language = readField(props, fields.streetLanguage);
  const names: Record<string, string> = language ? { [language]: streetname } : {};
  for (const [lang, spec] of Object.entries(fields.streetNamesByLanguage)) {
    const name = readField(props, spec);
    if (name && !names[lang]) names[lang] = name;
  }
  const others = otherNames(street_key, Object.values(names), streetKey);
  if (!others.length) return undefined;
  return {
    street_names: names,
    other_street_keys: others.map(streetKey),
    other_street_text: others.map(normaliseStreet),
  };
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
  const names = recordStreetNames(props, fields, streetname, street_key);
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
      ...(names
        ? {
            street_names: names.street_names,
            other_street_keys: names.other_street_keys,
            other_street_text: names.other_street_text,
          }
        : {}),
    },
  };
}
