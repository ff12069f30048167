import type { Logger } from 'pino';
import type { GuardStats } from '../elasticsearch/circuitBreaker.js';
import type { BodyCache } from '../http/bodyCache.js';
import type { ServiceState } from '../http/serviceState.js';
import type { AddressRepository } from '../repository/addresses.js';
import type { AreaRepository } from '../repository/areas.js';
import type { FreeTextSearch } from '../repository/freeTextSearch.js';
import type { AutocompleteRepository } from '../repository/autocomplete.js';
import type { IndexGenerations } from '../repository/generations.js';
import type { HealthRepository } from '../repository/health.js';
import type { ReverseRepository } from '../repository/reverse.js';

/** What route modules need; built once per process in app.ts. */
export interface RouteDeps {
  addresses: AddressRepository;
  areas: AreaRepository;
  freeText: FreeTextSearch;
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
}
