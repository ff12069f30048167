import type { Logger } from 'pino';
import type { GuardStats } from '../elasticsearch/circuitBreaker.js';
import type { BodyCache } from '../http/bodyCache.js';
import type { Metrics } from '../http/metrics.js';
import type { ServiceState } from '../http/serviceState.js';
import type { AddressRepository } from '../features/address/addressRepository.js';
import type { AreaRepository } from '../features/hierarchy/areaRepository.js';
import type { SearchBox } from '../features/search/searchBox.js';
import type { PlaceRepository } from '../features/search/placeRepository.js';
import type { CityNameRepository } from '../features/search/cityNames.js';
import type { AutocompleteRepository } from '../features/autocomplete/autocompleteRepository.js';
import type { IndexGenerations } from '../repository/generations.js';
import type { HealthRepository } from '../repository/health.js';
import type { ReverseRepository } from '../features/reverse/reverseRepository.js';

/** What the endpoints' handlers need; built once per process in app.ts. */
export interface ServiceDeps {
  addresses: AddressRepository;
  /** The same addresses for POST /geocode/batch, over its own batcher: larger `_msearch` requests (batchGeocoding.ts). */
  batchAddresses: AddressRepository;
  areas: AreaRepository;
  /** GET /search: addresses and places. */
  searchBox: SearchBox;
  /** The places index: /search and /autocomplete offer its places. */
  places: PlaceRepository;
  /** The known city names in every language: a city asked in French, and the city shown in the answer's language. */
  cityNames: CityNameRepository;
  autocomplete: AutocompleteRepository;
  health: HealthRepository;
  generations: IndexGenerations;
  /** Rendered boundary and hierarchy answers (src/http/bodyCache.ts). */
  bodies: BodyCache;
  reverse: ReverseRepository;
  /** The circuit breaker and load bound around Elasticsearch, for /health (undefined: the client has none). */
  guard: () => GuardStats | undefined;
  logger: Logger;
  /** Draining after SIGTERM: readiness answers 503. */
  state: ServiceState;
  metrics: Metrics;
  /** METRICS_KEY's digest: GET /metrics from anywhere but loopback (src/http/metrics.ts). */
  metricsKeyDigest: string | undefined;
  /** The OpenAPI document, rendered once at start-up (the schemas do not change while the process runs). */
  apiDocument: string;
}
