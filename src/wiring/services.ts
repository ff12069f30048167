/**
 * Every service the endpoints use, and the one place the search stack is built: the API (./app.ts), the benches and
 * the tests that need the searches without HTTP all build it with buildSearchServices.
 */
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from 'pino';
import type { Searcher } from '../elasticsearch/searchBatcher.js';
import { AddressRepository } from '../features/address/addressRepository.js';
import { HeldSuffixRepository } from '../features/address/heldSuffixes.js';
import type { AddressServices } from '../features/address/endpoints.js';
import type { AutocompleteServices } from '../features/autocomplete/endpoint.js';
import { AutocompleteRepository } from '../features/autocomplete/autocompleteRepository.js';
import { ShortPrefixCache } from '../features/autocomplete/shortPrefixCache.js';
import { CompleteStreetCache } from '../features/autocomplete/completeStreetCache.js';
import type { AutocompleteResults } from '../features/autocomplete/autocompleteAnswer.js';
import { AreaRepository } from '../features/hierarchy/areaRepository.js';
import type { NominatimServices } from '../features/dialects/nominatim/endpoints.js';
import type { PhotonServices } from '../features/dialects/photon/endpoints.js';
import type { PeliasServices } from '../features/dialects/pelias/endpoints.js';
import type { HierarchyServices } from '../features/hierarchy/endpoints.js';
import type { ReverseServices } from '../features/reverse/endpoint.js';
import { ReverseRepository } from '../features/reverse/reverseRepository.js';
import { CityNameRepository } from '../features/cities/cityNames.js';
import type { SearchServices } from '../features/search/endpoint.js';
import { FreeTextSearch } from '../features/search/freeTextSearch.js';
import { PlaceRepository } from '../features/places/placeRepository.js';
import { AreaKeyRepository } from '../features/places/areaKeyRepository.js';
import { SearchBox } from '../features/search/searchBox.js';
import type { ServiceEndpointServices } from '../features/service/endpoints.js';
import type { TileServices } from '../features/tiles/endpoints.js';
import { BoundaryTiles } from '../features/tiles/tileRepository.js';
import type { TileSeeds } from '../features/tiles/seed/tileSeeds.js';
import { IndexGenerations } from '../indexes/generations.js';
import { AttributionRepository } from '../indexes/attribution.js';

/** What every endpoint of ./endpoints.ts uses: each feature declares its part. */
export interface Services
  extends
    AddressServices,
    AutocompleteServices,
    HierarchyServices,
    NominatimServices,
    PhotonServices,
    PeliasServices,
    ReverseServices,
    SearchServices,
    ServiceEndpointServices,
    TileServices {}

export interface SearchStackOptions {
  client: Client;
  indexPrefix: string;
  /** How single requests' searches reach Elasticsearch (the API's coalesces them into `_msearch` requests). */
  searcher: Searcher;
  /** The batch endpoint's own (larger `_msearch` requests); the same as `searcher` when unset. */
  batchSearcher?: Searcher;
  logger: Logger;
  /** The boundary tiles cut ahead (the API's); none: every tile is cut on demand. */
  tileSeeds?: TileSeeds;
}

export type SearchStack = ReturnType<typeof buildSearchServices>;

/** The repositories and searches over the indexes, without HTTP: all the features' services but the service's own. */
export function buildSearchServices(options: SearchStackOptions) {
  const { client, indexPrefix, searcher, batchSearcher, logger, tileSeeds } = options;
  const generations = new IndexGenerations(client, indexPrefix);
  const suffixes = new HeldSuffixRepository(client, generations);
  const addresses = new AddressRepository(client, searcher, indexPrefix, suffixes);
  const areas = new AreaRepository(client, searcher, indexPrefix, generations);
  const cityNames = new CityNameRepository(client, generations, indexPrefix);
  const places = new PlaceRepository(searcher, indexPrefix);
  const freeText = new FreeTextSearch(addresses, areas, cityNames);
  return {
    generations,
    addresses,
    batchAddresses: batchSearcher ? new AddressRepository(client, batchSearcher, indexPrefix, suffixes) : addresses,
    areas,
    // The type-ahead's country bounds name the countries by their areas' ids.
    countryIds: areas,
    cityNames,
    places,
    freeText,
    searchBox: new SearchBox(freeText, places),
    autocomplete: new AutocompleteRepository(searcher, indexPrefix, new CompleteStreetCache(generations)),
    areaKeys: new AreaKeyRepository(client, generations),
    shortPrefixes: new ShortPrefixCache<AutocompleteResults>(generations),
    reverse: new ReverseRepository(client, searcher, indexPrefix, generations, logger),
    boundaryTiles: new BoundaryTiles(client, generations, logger, tileSeeds),
    attribution: new AttributionRepository(client, generations),
  };
}
