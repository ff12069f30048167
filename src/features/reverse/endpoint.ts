/** GET /reverse: the addresses nearest a point and the areas that contain it. */
import type { z } from 'zod';
import { endpoint } from '../../endpoints/endpoint.js';
import { MAX_REVERSE_RADIUS_METRES, MAX_REVERSE_SIZE, ReverseQuery } from '../../schemas/requests.js';
import { ReverseFeatureCollection, ReverseResponse } from '../../schemas/responses.js';
import { resultsAsFeatures } from '../../geojson/resultFeatures.js';
import { reverseRecord } from './reverseRecord.js';

export const reverseEndpoint = endpoint({
  method: 'get',
  path: '/reverse',
  tag: 'Geocoding',
  summary: 'What lies at a point',
  description:
    `The \`size\` (1..${MAX_REVERSE_SIZE}, default 1) addresses nearest the point within \`radius\` metres ` +
    `(default 200, at most ${MAX_REVERSE_RADIUS_METRES}), nearest first, with \`distance_m\`; and per level the ` +
    'area whose polygon contains the point, or `null`. `lat` and `lon` are required plain decimals. ' +
    '`format=geojson`: the addresses as a FeatureCollection of points (none: no features), the areas as its ' +
    '`areas` member.',
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
  handle: ({ query: { lat, lon, size, radius } }, { reverse }) => reverse.reverse({ lat, lon }, radius, size),
  record: reverseRecord,
});
