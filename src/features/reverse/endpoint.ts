/** GET /reverse: the addresses nearest a point and the areas that contain it. */
import type { z } from 'zod';
import { endpointsOf } from '../../endpoints/endpoint.js';
import { MAX_REVERSE_RADIUS_METRES, MAX_REVERSE_SIZE, ReverseQuery } from '../../schemas/requests.js';
import { ReverseFeatureCollection, ReverseResponse } from '../../schemas/responses.js';
import { resultsAsFeatures } from '../../geojson/resultFeatures.js';
import { answerReverse } from './reverseAnswer.js';
import { reverseRecord } from './reverseRecord.js';
import type { ReverseRepository } from './reverseRepository.js';
import type { CityNameRepository } from '../cities/cityNames.js';

/** The services GET /reverse uses (src/wiring/services.ts builds them). */
export interface ReverseServices {
  reverse: ReverseRepository;
  cityNames: CityNameRepository;
}

export const reverseEndpoint = endpointsOf<ReverseServices>()({
  method: 'get',
  path: '/reverse',
  tag: 'Geocoding',
  summary: 'What lies at a point',
  description:
    `The \`size\` (1..${MAX_REVERSE_SIZE}, default 1) addresses nearest the point within \`radius\` metres ` +
    `(default 200, at most ${MAX_REVERSE_RADIUS_METRES}), nearest first, with \`distance_m\`; and per level the ` +
    'area whose polygon contains the point, or `null`. `lat` and `lon` are required plain decimals. Street, ' +
    'city and area names in the language `lang` (nl, fr, de) or Accept-Language chooses, else the primary ones; ' +
    '`names` lists them where there are several (Brussels). `format=geojson`: the addresses as a ' +
    'FeatureCollection of points (none: no features), the areas as its `areas` member.',
  access: 'key',
  query: ReverseQuery,
  ok: {
    description: 'The nearest addresses and the containing areas',
    schema: ReverseResponse,
    geojsonFormat: {
      schema: ReverseFeatureCollection,
      shape: ({ addresses, areas }: z.infer<typeof ReverseResponse>) => ({ ...resultsAsFeatures(addresses), areas }),
    },
  },
  backend: true,
  languages: true,
  handle: ({ query: { lat, lon, size, radius, lang }, acceptLanguage }, services) =>
    answerReverse(services, { lat, lon, radius, size, language: { lang, acceptLanguage } }),
  record: reverseRecord,
});
