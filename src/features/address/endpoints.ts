/** The address endpoints: street lookup, forward geocoding (one and a batch), and address records by id. */
import { featureCollection } from '../../geojson/features.js';
import { endpointsOf, idOf } from '../../endpoints/endpoint.js';
import type { AddressRepository } from './addressRepository.js';
import { AddressQuery, BatchBody, MAX_BATCH_ITEMS, StreetQueryBody } from '../../schemas/requests.js';
import type { CityNameRepository } from '../cities/cityNames.js';
import { addressesInLanguage, addressLocaliser } from './addressLanguage.js';
import { answerLanguage, type LanguageChoice } from '../../language/answerLanguage.js';
import {
  Address,
  AddressFeatureCollection,
  AddressList,
  BatchResponse,
  ForwardResult,
  LookupResponse,
} from '../../schemas/responses.js';
import { addressFeature, addressRecord, forwardRecord, lookupRecord } from './addressRecords.js';
import { parseStreetQuery } from './streetRequest.js';
import { answerBatch } from './batchGeocoding.js';

/** The services the address endpoints use (src/wiring/services.ts builds them). */
export interface AddressServices {
  addresses: AddressRepository;
  /** The same addresses for POST /geocode/batch, over its own batcher: larger `_msearch` requests (batchGeocoding.ts). */
  batchAddresses: AddressRepository;
  /** The known city names in every language: a city asked in French, and the city shown in the answer's language. */
  cityNames: CityNameRepository;
}

const endpoint = endpointsOf<AddressServices>();

/**
 * The body read into a street query, its city read in any language (`Bruxelles` filters on the indexed
 * `brussel`), with the known cities (their names per language, for the answer).
 */
async function readStreetQuery(body: StreetQueryBody, cityNames: CityNameRepository) {
  const cities = await cityNames.known();
  const q = parseStreetQuery(body);
  return { q: { ...q, cityKey: q.cityKey && cities.canonical(q.cityKey) }, cities };
}

/**
 * How addresses asked for by id (or building) are shown: in the language `lang` or Accept-Language chose, their
 * cities' names from the known cities (cached per index generation; read alongside the address search).
 */
async function chosenLanguage(choice: Omit<LanguageChoice, 'matched'>, cityNames: CityNameRepository) {
  const cities = await cityNames.known();
  return addressesInLanguage(answerLanguage(choice), cities.names);
}

/** One address by id, in the chosen language. */
async function addressById(id: string, choice: Omit<LanguageChoice, 'matched'>, services: AddressServices) {
  const { addresses, cityNames } = services;
  const [doc, inLanguage] = await Promise.all([addresses.get(id), chosenLanguage(choice, cityNames)]);
  return inLanguage(doc);
}

const BY_ID_LANGUAGE =
  ' Street and city names in the language `lang` (nl, fr, de) or Accept-Language chooses, else the primary ' +
  'ones; `names` lists them where there are several.';

const BODY_FIELDS =
  'Body: `streetname` (any case, with or without accents or abbreviations) and `number` (may carry a suffix: ' +
  '`"12a"`, `"139A-1"`); optional `suffix`, `postcode` (`"2628 CD"` = `"2628cd"`; with `number` alone it ' +
  'replaces `streetname`), `city`, and `lat` with `lon` (a focus that ranks equal candidates by distance). ' +
  'Street and city match in any of their languages (`Rue Neuve` = `Nieuwstraat`, `Bruxelles` = `Brussel`); ' +
  '`lang` (nl, fr, de) picks the names shown, else Accept-Language, else the language the query used; `names` ' +
  'lists them where there are several. Unknown fields are a 400.';

export const lookupEndpoint = endpoint({
  method: 'post',
  path: '/lookup/street',
  tag: 'Geocoding',
  summary: 'Every address with this street and number',
  description:
    `All matching addresses (every suffix of the number unless \`suffix\` narrows it), in a stable order; ` +
    `\`[]\` when none. ${BODY_FIELDS}`,
  access: 'key',
  body: StreetQueryBody,
  ok: { description: 'The matching addresses', schema: LookupResponse },
  backend: true,
  languages: true,
  handle: async ({ body, acceptLanguage }, { addresses, cityNames }) => {
    const { q, cities } = await readStreetQuery(body, cityNames);
    const inLanguage = addressLocaliser(q, { lang: body.lang, acceptLanguage }, cities);
    return (await addresses.lookup(q)).map(inLanguage);
  },
  record: (docs) => docs.map(lookupRecord),
});

export const forwardEndpoint = endpoint({
  method: 'post',
  path: '/geocode/forward',
  tag: 'Geocoding',
  summary: 'The single best address for a street and number',
  description:
    'The best match, with `confidence` (0..1) and `match`: how the street (exact, normalized, fuzzy), the ' +
    `number (exact, other_suffix, nearest existing one) and the postcode matched. ${BODY_FIELDS}`,
  access: 'key',
  body: StreetQueryBody,
  ok: { description: 'The best address', schema: ForwardResult },
  notFound: '`no_match`: no address is close enough',
  noMatch: 'No address matches the street name and number',
  backend: true,
  languages: true,
  handle: async ({ body, acceptLanguage }, { addresses, cityNames }) => {
    const { q, cities } = await readStreetQuery(body, cityNames);
    const answer = await addresses.forward(q);
    if (!answer) return undefined;
    return { ...answer, doc: addressLocaliser(q, { lang: body.lang, acceptLanguage }, cities)(answer.doc) };
  },
  record: forwardRecord,
});

export const batchEndpoint = endpoint({
  method: 'post',
  path: '/geocode/batch',
  tag: 'Geocoding',
  summary: `Forward-geocode up to ${MAX_BATCH_ITEMS} addresses at once`,
  description:
    `\`items\`: 1..${MAX_BATCH_ITEMS} \`/geocode/forward\` bodies. The answer has one entry per item, in input ` +
    'order: `{"status":200,"result":…}` or `{"status":400|404,"error":…}`; a bad item fails only itself ' +
    '(its `details` paths read `body.items.<i>.<field>`). The body may be up to BATCH_BODY_LIMIT_BYTES (1 MiB ' +
    'by default). When Elasticsearch cannot answer, the whole batch is a 503: retry it whole.',
  access: 'key',
  body: BatchBody,
  ok: { description: 'One result per item, in input order', schema: BatchResponse },
  backend: true,
  largeBody: true,
  // Each item is answered as /geocode/forward answers it (its declaration: validation, no_match, record).
  // An item the backend could not answer fails the whole batch (503): the client retries it whole, rather
  // than sorting answered from unanswered items; the items not yet started are not searched for nothing.
  languages: true,
  // Its searches go through the batch's own repository, whose `_msearch` requests are larger (batchGeocoding.ts).
  handle: async ({ body, acceptLanguage }, deps) => ({
    results: await answerBatch(forwardEndpoint, body.items, acceptLanguage, {
      ...deps,
      addresses: deps.batchAddresses,
    }),
  }),
});

/** An address record's path (OpenAPI form); its Point feature lives below it. */
const ADDRESS_PATH = '/addresses/{id}';

export const addressEndpoint = endpoint({
  method: 'get',
  path: ADDRESS_PATH,
  tag: 'Addresses',
  summary: 'One address record',
  description: `The address with this id (ids come from every other answer).${BY_ID_LANGUAGE}`,
  access: 'key',
  pathParams: idOf('address'),
  query: AddressQuery,
  ok: { description: 'The address', schema: Address },
  notFound: 'No address has this id',
  backend: true,
  languages: true,
  handle: ({ params, query: { lang }, acceptLanguage }, deps) => addressById(params.id, { lang, acceptLanguage }, deps),
  record: addressRecord,
});

export const addressGeojsonEndpoint = endpoint({
  method: 'get',
  path: `${ADDRESS_PATH}/geojson`,
  tag: 'Boundaries',
  summary: 'One address as a Point feature',
  description:
    'The address as a FeatureCollection of one Point feature; its properties are the address record.' + BY_ID_LANGUAGE,
  access: 'key',
  pathParams: idOf('address'),
  query: AddressQuery,
  ok: { description: 'The address', schema: AddressFeatureCollection, geojson: true },
  notFound: 'No address has this id',
  reads: ['addresses'],
  backend: true,
  languages: true,
  handle: ({ params, query: { lang }, acceptLanguage }, deps) => addressById(params.id, { lang, acceptLanguage }, deps),
  record: (doc) => featureCollection([addressFeature(doc)]),
});

export const buildingAddressesEndpoint = endpoint({
  method: 'get',
  path: '/buildings/{id}/addresses',
  tag: 'Addresses',
  summary: 'The addresses of a building',
  description:
    'Every address in the building (building ids: `building_id` of an address, or a building feature).' +
    BY_ID_LANGUAGE,
  access: 'key',
  pathParams: idOf('building'),
  query: AddressQuery,
  ok: { description: 'The addresses', schema: AddressList },
  notFound: 'No building has this id',
  backend: true,
  languages: true,
  handle: async ({ params, query: { lang }, acceptLanguage }, { addresses, cityNames }) => {
    const [docs, inLanguage] = await Promise.all([
      addresses.ofBuilding(params.id),
      chosenLanguage({ lang, acceptLanguage }, cityNames),
    ]);
    return docs.map(inLanguage);
  },
  record: (docs) => docs.map(addressRecord),
});
