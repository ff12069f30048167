/**
 * The street query model: a structured request (street, number, suffix, postcode, city, focus) read once into
 * the normalised keys every tier searches with. Pure; knows nothing of HTTP (the route's schema has already
 * checked types and sizes) nor of Elasticsearch (the bodies are built in addressBodies.ts).
 */
import { type Focus, focusOf } from '../../geometry/focus.js';
import { InvalidQueryError } from '../../../core/domain/errors.js';
import { parseHouseNumber, parseSuffix, suffixKey } from '../../../core/text/houseNumber.js';
import { normaliseText, streetKeyReadings } from '../../../core/text/normalise.js';
import { normalisePostcode } from '../../../core/text/postcode.js';

/** What a client asks for, as the contract names the fields. */
export interface StreetQueryInput {
  streetname?: string | undefined;
  number: string;
  suffix?: string | undefined;
  postcode?: string | undefined;
  city?: string | undefined;
  lat?: number | undefined;
  lon?: number | undefined;
}

export interface StreetQuery {
  /** streetKey() of the input, "" when the query is postcode + number only. */
  streetKey: string;
  /** Other readings of an ambiguous abbreviation, tried after streetKey; mostly []. */
  streetKeyAlternatives: string[];
  /** The raw street as typed, to tell an exact spelling from a normalised match. */
  streetRaw: string;
  houseNumber: number;
  /** Set when the client named a suffix (in `number` or `suffix`): narrows lookups, ranks forward results. */
  suffixKey: string | undefined;
  postcodeKey: string | undefined;
  cityKey: string | undefined;
  focus: Focus | undefined;
  /** Only addresses of this country (the id of its area document): free text's `country`. */
  countryId?: string | undefined;
  /**
   * The suffix keys the index holds (HeldSuffixRepository, set by the address repository): forward ranking sends only
   * the spellings of a box some address holds (addressBodies.ts, rankedSpellings); absent: every spelling.
   */
  heldSuffixes?: ReadonlySet<string> | undefined;
}

/** At most this many alternative readings go into one exact-tier request. */
const MAX_ALTERNATIVES = 6;

/**
 * `focus`: the request's own lat/lon by default; a caller that has already read a focus passes it on whole.
 * @throws InvalidQueryError when `number` holds no house number.
 */
export function parseStreetQuery(input: StreetQueryInput, focus: Focus | undefined = focusOf(input)): StreetQuery {
  const number = parseHouseNumber(input.number);
  if (!number) throw new InvalidQueryError('number', `"${input.number}" is not a house number`);
  let suffix = number.letter || number.addition ? suffixKey(number) : undefined;
  if (input.suffix) suffix = suffixKey(parseSuffix(input.suffix));
  const streetRaw = input.streetname ?? '';
  const street = streetRaw ? streetKeyReadings(streetRaw) : { key: '', alternatives: [] };
  const postcodeKey = input.postcode ? normalisePostcode(input.postcode) : undefined;
  const cityKey = input.city ? normaliseText(input.city) : undefined;
  return {
    streetKey: street.key,
    streetKeyAlternatives: street.alternatives.slice(0, MAX_ALTERNATIVES),
    streetRaw,
    houseNumber: number.number,
    suffixKey: suffix,
    postcodeKey: postcodeKey || undefined,
    cityKey: cityKey || undefined,
    focus,
  };
}
