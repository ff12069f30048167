/**
 * Every endpoint of the service, in the order of the API reference. The router, the open paths, the body
 * limits and the OpenAPI document are all read from this list.
 */
import {
  addressEndpoint,
  addressGeojsonEndpoint,
  batchEndpoint,
  buildingAddressesEndpoint,
  forwardEndpoint,
  lookupEndpoint,
} from '../features/address/endpoints.js';
import { autocompleteEndpoint } from '../features/autocomplete/endpoint.js';
import { NOMINATIM_ENDPOINTS } from '../features/dialects/nominatim/endpoints.js';
import { PHOTON_ENDPOINTS } from '../features/dialects/photon/endpoints.js';
import { PELIAS_ENDPOINTS } from '../features/dialects/pelias/endpoints.js';
import { HIERARCHY_ENDPOINTS } from '../features/hierarchy/endpoints.js';
import { reverseEndpoint } from '../features/reverse/endpoint.js';
import { searchEndpoint } from '../features/search/endpoint.js';
import {
  healthEndpoint,
  livenessEndpoint,
  metricsEndpoint,
  openApiEndpoint,
  readinessEndpoint,
} from '../features/service/endpoints.js';
import { TILE_ENDPOINTS } from '../features/tiles/endpoints.js';
import type { Endpoint } from '../endpoints/endpoint.js';
import type { Services } from './services.js';

export const ENDPOINTS: readonly Endpoint<Services>[] = [
  lookupEndpoint,
  forwardEndpoint,
  batchEndpoint,
  searchEndpoint,
  autocompleteEndpoint,
  reverseEndpoint,
  addressEndpoint,
  addressGeojsonEndpoint,
  buildingAddressesEndpoint,
  ...HIERARCHY_ENDPOINTS,
  ...TILE_ENDPOINTS,
  ...NOMINATIM_ENDPOINTS,
  ...PHOTON_ENDPOINTS,
  ...PELIAS_ENDPOINTS,
  healthEndpoint,
  livenessEndpoint,
  readinessEndpoint,
  metricsEndpoint,
  openApiEndpoint,
];
