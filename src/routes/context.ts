import type { Client } from '@elastic/elasticsearch';
import type { Logger } from 'pino';
import type { AddressRepository } from '../repository/addresses.js';
import type { AreaRepository } from '../repository/areas.js';

/** What route modules need; built once per process in app.ts. */
export interface RouteDeps {
  client: Client;
  indexPrefix: string;
  addresses: AddressRepository;
  areas: AreaRepository;
  logger: Logger;
}
