/**
 * What the API reference says about each route: one entry per method and path the router serves, with the zod
 * schemas the handler parses its input with and answers by (the hierarchy's in ./hierarchyOperations.ts). src/openapi/document.ts turns the table into the
 * OpenAPI document; test/integration/openapi.test.ts checks that it lists exactly the router's routes.
 */
import { METRICS_PATH } from '../http/metrics.js';
import {
  AutocompleteQueryParams,
  BatchBody,
  MAX_BATCH_ITEMS,
  MAX_REVERSE_RADIUS_METRES,
  MAX_REVERSE_SIZE,
  MAX_SEARCH_SIZE,
  NoQuery,
  ReverseQuery,
  SearchQueryParams,
  StreetQueryBody,
} from '../schemas/requests.js';
import {
  Address,
  AddressFeatureCollection,
  AddressList,
  AutocompleteResponse,
  BatchResponse,
  ForwardResult,
  Health,
  Liveness,
  LookupResponse,
  MetricsText,
  OpenApiDocument,
  Readiness,
  ReverseResponse,
  SearchResponse,
} from '../schemas/responses.js';
import { HIERARCHY_OPERATIONS } from './hierarchyOperations.js';
import { idOf, type OperationSpec } from './operationSpec.js';

export const OPENAPI_PATH = '/openapi.json';

const BODY_FIELDS =
  'Body: `streetname` (any case, with or without accents or abbreviations) and `number` (may carry a suffix: ' +
  '`"12a"`, `"139A-1"`); optional `suffix`, `postcode` (`"2628 CD"` = `"2628cd"`; with `number` alone it ' +
  'replaces `streetname`), `city`, and `lat` with `lon` (a focus that ranks equal candidates by distance). ' +
  'Unknown fields are a 400.';

export const OPERATIONS: readonly OperationSpec[] = [
  {
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
  },
  {
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
    backend: true,
  },
  {
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
  },
  {
    method: 'get',
    path: '/search',
    tag: 'Geocoding',
    summary: 'Free-text address search',
    description:
      'Reads an address as people write it, in any usual order (`Mekelweg 8, 2628 CD Delft`, `delft, ' +
      'mekelweg 8`, `2628CD 8a`), and answers in the `/geocode/forward` shape, best first, at most `size` ' +
      `(1..${MAX_SEARCH_SIZE}, default 10). The house number anchors the reading; a text without one answers ` +
      '`[]` (type-ahead is `/autocomplete`). `lat` and `lon` go together (a focus); `country` keeps to NL or BE.',
    access: 'key',
    query: SearchQueryParams,
    ok: { description: 'The addresses, best first', schema: SearchResponse },
    backend: true,
  },
  {
    method: 'get',
    path: '/autocomplete',
    tag: 'Geocoding',
    summary: 'Type-ahead suggestions',
    description:
      'One request per keystroke: streets (by the prefix of any word, one typo tolerated), addresses once a ' +
      'number follows the street, postcodes by prefix and cities. `size` 1..20 (default 10); `lat` and `lon` ' +
      'together rank equal matches by distance (a map-centred search box). `id` is set on addresses only.',
    access: 'key',
    query: AutocompleteQueryParams,
    ok: { description: 'The suggestions, best first', schema: AutocompleteResponse },
    backend: true,
  },
  {
    method: 'get',
    path: '/reverse',
    tag: 'Geocoding',
    summary: 'What lies at a point',
    description:
      `The \`size\` (1..${MAX_REVERSE_SIZE}, default 1) addresses nearest the point within \`radius\` metres ` +
      `(default 200, at most ${MAX_REVERSE_RADIUS_METRES}), nearest first, with \`distance_m\`; and per level the ` +
      'area whose polygon contains the point, or `null`. `lat` and `lon` are required plain decimals.',
    access: 'key',
    query: ReverseQuery,
    ok: { description: 'The nearest addresses and the containing areas', schema: ReverseResponse },
    backend: true,
  },
  {
    method: 'get',
    path: '/addresses/{id}',
    tag: 'Addresses',
    summary: 'One address record',
    description: 'The address with this id (ids come from every other answer).',
    access: 'key',
    pathParams: idOf('address'),
    query: NoQuery,
    ok: { description: 'The address', schema: Address },
    notFound: 'No address has this id',
    backend: true,
  },
  {
    method: 'get',
    path: '/addresses/{id}/geojson',
    tag: 'Boundaries',
    summary: 'One address as a Point feature',
    description: 'The address as a FeatureCollection of one Point feature; its properties are the address record.',
    access: 'key',
    pathParams: idOf('address'),
    query: NoQuery,
    ok: { description: 'The address', schema: AddressFeatureCollection, geojson: true },
    notFound: 'No address has this id',
    conditional: true,
    backend: true,
  },
  {
    method: 'get',
    path: '/buildings/{id}/addresses',
    tag: 'Addresses',
    summary: 'The addresses of a building',
    description: 'Every address in the building (building ids: `building_id` of an address, or a building feature).',
    access: 'key',
    pathParams: idOf('building'),
    query: NoQuery,
    ok: { description: 'The addresses', schema: AddressList },
    notFound: 'No building has this id',
    backend: true,
  },
  ...HIERARCHY_OPERATIONS,
  {
    method: 'get',
    path: '/health',
    tag: 'Service',
    summary: 'Service and Elasticsearch health',
    description:
      'For load balancers: 200 `ok` while Elasticsearch answers and every index is loaded; 503 otherwise. Also ' +
      'the body cache and the circuit breaker around Elasticsearch.',
    access: 'open',
    ok: { description: '`status: ok`', schema: Health },
    sameShape: {
      '503':
        '`not_loaded` (Elasticsearch answers, an index is missing: `null`), `unavailable` (no answer) or ' +
        '`draining` (shutting down)',
    },
    backend: false,
  },
  {
    method: 'get',
    path: '/health/live',
    tag: 'Service',
    summary: 'Liveness',
    description: 'For a liveness probe: 200 while the process answers HTTP. Asks Elasticsearch nothing.',
    access: 'open',
    ok: { description: '`status: ok`', schema: Liveness },
    backend: false,
  },
  {
    method: 'get',
    path: '/health/ready',
    tag: 'Service',
    summary: 'Readiness',
    description:
      'For a readiness probe or load balancer: the status of `/health` without the details. One check of ' +
      'Elasticsearch serves every caller for about a second.',
    access: 'open',
    ok: { description: '`status: ok`', schema: Readiness },
    sameShape: { '503': '`not_loaded`, `unavailable` or `draining` (shutting down: take it out of rotation)' },
    backend: false,
  },
  {
    method: 'get',
    path: METRICS_PATH,
    tag: 'Service',
    summary: 'Prometheus metrics',
    description:
      'Requests by route and status, latency, Elasticsearch round trips, breaker state. No key from loopback ' +
      '(the socket peer, not behind a proxy); from anywhere else `X-Metrics-Key` or `Authorization: Bearer` ' +
      'with METRICS_KEY (403 when none is configured).',
    access: 'metrics',
    ok: { description: 'The metrics', schema: MetricsText, mediaType: 'text/plain' },
    backend: false,
  },
  {
    method: 'get',
    path: OPENAPI_PATH,
    tag: 'Service',
    summary: 'This API description',
    description:
      'The OpenAPI 3.1 document, generated from the schemas the service validates with. Rendered at `/docs`.',
    access: 'open',
    ok: { description: 'The OpenAPI document', schema: OpenApiDocument },
    backend: false,
  },
];
