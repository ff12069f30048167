/**
 * A level's features for its tiles, read from the concrete index(es) of one generation (not the alias: a swap during
 * the read cannot mix two): the areas of that level, or every building. The API's tiles (tileRepository.ts) and the
 * seeding worker (seed/seedWorker.ts) read them the same way, so a seeded tile is the tile cut on demand.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import type { Feature, Geometry } from 'geojson';
import type { AreaDoc, BuildingDoc } from '../../../core/elasticsearch/documents.js';
import { concreteIndexes } from '../../indexes/generations.js';
import { searchAllPages } from '../../indexes/paging.js';
import { areaTileFeatures, buildingTileFeature, type TileProperties } from './tileFeatures.js';
import type { TileLevel } from './zoomTable.js';

const PAGE_SIZE = 200;
const AREA_SOURCE = ['id', 'level', 'name', 'names', 'local_identifier', 'centroid', 'geometry'];
const BUILDING_SOURCE = ['id', 'local_identifier', 'geometry'];

/**
 * `generation`: the areas' generation for an area level, the buildings' for `building`. `onPage`: called after each
 * page read (the seeding worker's sign of progress).
 */
export async function levelFeatures(
  client: Client,
  level: TileLevel,
  generation: string,
  onPage?: () => void,
): Promise<Feature<Geometry, TileProperties>[]> {
  const features: Feature<Geometry, TileProperties>[] = [];
  if (level === 'building') {
    for await (const page of pages<BuildingDoc>(client, generation, { match_all: {} }, BUILDING_SOURCE)) {
      for (const hit of page) if (hit._source) features.push(buildingTileFeature(hit._source));
      onPage?.();
    }
    return features;
  }
  const query = { bool: { filter: [{ term: { level } }] } };
  for await (const page of pages<AreaDoc>(client, generation, query, AREA_SOURCE)) {
    for (const hit of page) if (hit._source) features.push(...areaTileFeatures(hit._source));
    onPage?.();
  }
  return features;
}

function pages<T>(client: Client, generation: string, query: estypes.QueryDslQueryContainer, source: string[]) {
  const index = concreteIndexes(generation);
  return searchAllPages<T>(client, { index, query, sort: [{ id: 'asc' }], source, pageSize: PAGE_SIZE });
}
