import type { Logger } from 'pino';
import type { AddressRepository } from '../repository/addresses.js';
import type { AreaRepository } from '../repository/areas.js';
import type { HealthRepository } from '../repository/health.js';

/** What route modules need; built once per process in app.ts. */
export interface RouteDeps {
  addresses: AddressRepository;
  areas: AreaRepository;
  health: HealthRepository;
  logger: Logger;
}
