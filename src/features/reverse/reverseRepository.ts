/**
 * Reverse geocoding (GET /reverse): the addresses nearest a point, and the areas and building whose polygons
 * contain it.
 *
 * Addresses and building candidates come from Elasticsearch per request, in the same event-loop turn (one
 * `_msearch` through the batcher). Areas do not: country and province shapes are large (the countries alone
 * are ~2 MB of GeoJSON) and a Dutch point lies in the envelope of several countries, so fetching and parsing
 * them per request would dominate the cost. They are loaded once per index generation into an in-process
 * R-tree of compact polygons (containment.ts), lazily on the first request, and reloaded when the
 * areas alias points at a new generation (checked through IndexGenerations, cached for a second).
 *
 * Savings measured on the bulk data, where every search costs Elasticsearch about as much as the rest of the
 * request: addresses are looked for within NEAR_RADIUS_M first (the full radius only when that finds fewer than
 * `size`), by a box filter (see nearestAddressesRequest), and the building search is skipped where the buildings
 * generation has no building nearby (TileCoverage, also loaded once per generation).
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import type { Logger } from 'pino';
import {
  type AreaDoc,
  type AreaLevel,
  type BuildingDoc,
  PARENT_LEVELS,
  type ParentLevel,
} from '../../../core/elasticsearch/documents.js';
import { elasticsearchCall } from '../../elasticsearch/failures.js';
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import type { Searcher } from '../../elasticsearch/searchBatcher.js';
import {
  AreaIndex,
  type AreaIndexStats,
  COVERAGE_ZOOM,
  envelopeArea,
  geometryContains,
  type IndexedArea,
  polygonsOf,
  TileCoverage,
} from './containment.js';
import {
  type ReverseAddressDoc,
  ALL_AREAS_QUERY,
  AREA_INDEX_PAGE_SIZE,
  AREA_INDEX_SORT,
  AREA_INDEX_SOURCE,
  buildingCandidatesRequest,
  buildingTilesRequest,
  COVERAGE_MAX_TILES,
  NEAR_RADIUS_M,
  nearestAddressesRequest,
  type ReversePoint,
  withinRadius,
} from './reverseBodies.js';
import { concreteIndexes, GenerationCache, type IndexGenerations } from '../../indexes/generations.js';
import { searchAllPages } from '../../indexes/paging.js';

/** An area or building containing the point. A building has no name: its local identifier stands in for it. */
export interface AreaRef {
  id: string;
  name: string;
  local_identifier: string;
  /** The area's names per language, where it has them (a Belgian municipality; a Brussels city). */
  names?: Record<string, string> | undefined;
}

export interface ReverseAnswer {
  addresses: (ReverseAddressDoc & { distance_m: number })[];
  areas: Record<ParentLevel, AreaRef | null>;
}

interface CachedArea extends IndexedArea {
  level: AreaLevel;
  ref: AreaRef;
}

type BuildingCandidate = Pick<BuildingDoc, 'id' | 'local_identifier' | 'bbox' | 'geometry'>;

export interface AreaCacheState extends AreaIndexStats {
  generation: string;
  loadMs: number;
}

export class ReverseRepository {
  private readonly addresses: string;
  private readonly buildings: string;
  private readonly areaIndex: GenerationCache<AreaIndex<CachedArea>>;
  private readonly buildingCoverage: GenerationCache<TileCoverage>;
  private loaded: AreaCacheState | undefined;

  constructor(
    private readonly client: Client,
    private readonly searcher: Searcher,
    indexPrefix: string,
    generations: IndexGenerations,
    private readonly logger?: Logger,
  ) {
    this.addresses = aliasName(indexPrefix, 'addresses');
    this.buildings = aliasName(indexPrefix, 'buildings');
    this.areaIndex = new GenerationCache(generations, 'areas', (generation) => this.loadAreas(generation));
    this.buildingCoverage = new GenerationCache(generations, 'buildings', (g) => this.loadCoverage(g));
  }

  async reverse(point: ReversePoint, radiusM: number, size: number): Promise<ReverseAnswer> {
    // The address search is queued at once; with the cached coverage, the building search follows in the same
    // turn (microtasks run before the batcher's flush), so both travel in one `_msearch`.
    const near = Math.min(radiusM, NEAR_RADIUS_M);
    const nearAddresses = this.searchAddresses(point, near, size);
    const buildingHits = this.buildingCoverage
      .get()
      .then((coverage) => (coverage.covers(point.lon, point.lat) ? this.searchBuildings(point) : []));
    const [firstHits, buildings, areaIndex] = await Promise.all([nearAddresses, buildingHits, this.areaIndex.get()]);
    // Fewer than `size` within the near radius: the full radius (a second round trip, away from addresses only).
    const hits =
      firstHits.length < size && radiusM > near ? await this.searchAddresses(point, radiusM, size) : firstHits;

    const addresses = hits.flatMap((hit) =>
      hit._source ? [{ ...hit._source, distance_m: roundMetres(Number(hit.sort?.[0] ?? 0)) }] : [],
    );
    const areas = Object.fromEntries(PARENT_LEVELS.map((level) => [level, null])) as ReverseAnswer['areas'];
    for (const [level, area] of areaIndex.containing(point.lon, point.lat)) areas[level as AreaLevel] = area.ref;
    areas.building = containingBuilding(buildings, point);
    return { addresses, areas };
  }

  private async searchAddresses(point: ReversePoint, radiusM: number, size: number) {
    const res = await this.searcher.search<ReverseAddressDoc>(
      this.addresses,
      nearestAddressesRequest(point, radiusM, size),
    );
    return withinRadius(res.hits.hits, radiusM);
  }

  private async searchBuildings(point: ReversePoint): Promise<BuildingCandidate[]> {
    const res = await this.searcher.search<BuildingCandidate>(this.buildings, buildingCandidatesRequest(point));
    return res.hits.hits.flatMap((h) => (h._source ? [h._source] : []));
  }

  /** Size and age of the area index, once loaded (logged at every load). */
  areaCacheState(): AreaCacheState | undefined {
    return this.loaded;
  }

  /** Reads the concrete index(es) of the generation, not the alias: a swap during the load cannot mix two. */
  private async loadAreas(generation: string): Promise<AreaIndex<CachedArea>> {
    const started = Date.now();
    const options = {
      index: concreteIndexes(generation),
      query: ALL_AREAS_QUERY,
      sort: AREA_INDEX_SORT,
      source: AREA_INDEX_SOURCE,
      pageSize: AREA_INDEX_PAGE_SIZE,
    };
    const areas: CachedArea[] = [];
    for await (const page of searchAllPages<AreaDoc>(this.client, options)) {
      for (const hit of page) {
        const doc = hit._source;
        if (!doc) continue;
        areas.push({
          level: doc.level,
          id: doc.id,
          envelopeArea: envelopeArea(doc.bbox),
          polygons: polygonsOf(doc.geometry),
          ref: { id: doc.id, name: doc.name, local_identifier: doc.local_identifier, names: doc.names },
        });
      }
    }
    const index = new AreaIndex(areas);
    this.loaded = { generation, loadMs: Date.now() - started, ...index.stats };
    this.logger?.info(
      { areaCache: { ...this.loaded, megabytes: Math.round(index.stats.bytes / 1e5) / 10 } },
      'reverse: area index loaded',
    );
    return index;
  }

  /** The tiles of the generation that hold buildings: one aggregation (see TileCoverage). */
  private async loadCoverage(generation: string): Promise<TileCoverage> {
    const res = await elasticsearchCall(() =>
      this.client.search({ index: concreteIndexes(generation), ...buildingTilesRequest(COVERAGE_ZOOM) }),
    );
    const buckets = (res.aggregations?.tiles as estypes.AggregationsGeoTileGridAggregate | undefined)?.buckets;
    const keys = Array.isArray(buckets) ? buckets.map((b) => String(b.key)) : [];
    const coverage = new TileCoverage(keys, !Array.isArray(buckets) || keys.length >= COVERAGE_MAX_TILES);
    this.logger?.info({ buildingCoverage: { generation, tiles: keys.length } }, 'reverse: building coverage loaded');
    return coverage;
  }
}

/** The building whose footprint contains the point; where footprints overlap, the smallest envelope, then id. */
function containingBuilding(candidates: BuildingCandidate[], point: ReversePoint): AreaRef | null {
  let best: { doc: BuildingCandidate; area: number } | undefined;
  for (const doc of candidates) {
    if (!geometryContains(polygonsOf(doc.geometry), point.lon, point.lat)) continue;
    const area = envelopeArea(doc.bbox);
    if (!best || area < best.area || (area === best.area && doc.id < best.doc.id)) best = { doc, area };
  }
  if (!best) return null;
  const { id, local_identifier } = best.doc;
  return { id, name: local_identifier, local_identifier };
}

/** Distances to the centimetre: geo_point storage is quantised to about that anyway. */
function roundMetres(m: number): number {
  return Math.round(m * 100) / 100;
}
