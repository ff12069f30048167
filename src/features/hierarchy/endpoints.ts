import type Router from '@koa/router';
import type { Feature } from 'geojson';
import type { Context } from 'koa';
import type { AreaDoc, AreaLevel, IndexKind } from '../../../core/elasticsearch/documents.js';
import { areaFeature, buildingFeature, featureCollection } from '../../geojson/features.js';
import { streamFeatureCollection } from '../../geojson/streamCollection.js';
import { respondCached } from '../../http/conditional.js';
import { geojsonMediaType, JSON_TYPE } from '../../http/mediaType.js';
import { parseQuery, parseWith } from '../../http/validate.js';
import { cityRecord, countryRecord, municipalityRecord, provinceRecord } from './areaRecords.js';
import type { DocPages } from '../../repository/paging.js';
import {
  AreaListQuery,
  BoundaryListQuery,
  BoundaryQuery,
  BuildingListQuery,
  CountryBoundaryListQuery,
  CountryListQuery,
  IdParam,
} from '../../schemas/requests.js';
import type { RouteDeps } from '../../endpoints/deps.js';

async function* mapPages<T>(pages: AsyncIterable<T[]>, toFeature: (doc: T) => Feature) {
  for await (const page of pages) yield page.map(toFeature);
}

async function collect<T, R>(pages: AsyncIterable<T[]>, map: (doc: T) => R): Promise<R[]> {
  const out: R[] = [];
  for await (const page of pages) for (const doc of page) out.push(map(doc));
  return out;
}

/**
 * The first page is fetched before the status line goes out, so a backend failure is still a clean 503;
 * later pages stream.
 */
async function sendFeatures<T>(ctx: Context, pages: DocPages<T>, toFeature: (doc: T) => Feature) {
  const first = await pages.next();
  async function* all() {
    if (first.done) return;
    yield first.value;
    yield* pages;
  }
  ctx.type = geojsonMediaType(ctx);
  ctx.body = streamFeatureCollection(mapPages(all(), toFeature));
}

const AREAS: IndexKind[] = ['areas'];
/** A suburb's buildings also read the areas index (the suburb's existence check). */
const BUILDINGS: IndexKind[] = ['areas', 'buildings'];

export function registerHierarchyRoutes(router: Router, { areas, generations, bodies }: RouteDeps): void {
  /** Every hierarchy answer is conditional on the generations it reads (see src/http/conditional.ts). */
  const cached = async (ctx: Context, kinds: IndexKind[], mediaType: string, build: () => Promise<void>) =>
    respondCached(ctx, { generations: await generations.of(kinds), mediaType, bodies }, build);

  const single = (level: AreaLevel) => async (ctx: Context) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    const { geometry, simplify } = parseQuery(BoundaryQuery, ctx.query);
    const mediaType = geojsonMediaType(ctx);
    await cached(ctx, AREAS, mediaType, async () => {
      const doc = await areas.get(level, id, geometry === 'shape');
      ctx.type = mediaType;
      ctx.body = featureCollection([areaFeature(doc, geometry, simplify)]);
    });
  };

  const childList =
    <R>(parentLevel: AreaLevel, childLevel: AreaLevel, record: (d: AreaDoc) => R) =>
    async (ctx: Context) => {
      const { id } = parseWith(IdParam, ctx.params, 'path');
      const { name, bbox } = parseQuery(AreaListQuery, ctx.query);
      await cached(ctx, AREAS, JSON_TYPE, async () => {
        const pages = await areas.children({ level: parentLevel, id }, childLevel, { name, viewport: bbox }, false);
        ctx.body = await collect(pages, record);
      });
    };

  const childGeojson = (parentLevel: AreaLevel, childLevel: AreaLevel) => async (ctx: Context) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    const { name, bbox, geometry, simplify } = parseQuery(BoundaryListQuery, ctx.query);
    await cached(ctx, AREAS, geojsonMediaType(ctx), async () => {
      const filter = { name, viewport: bbox };
      const pages = await areas.children({ level: parentLevel, id }, childLevel, filter, geometry === 'shape');
      await sendFeatures(ctx, pages, (doc) => areaFeature(doc, geometry, simplify));
    });
  };

  router.get('/countries', async (ctx) => {
    const { name, country_code, bbox } = parseQuery(CountryListQuery, ctx.query);
    await cached(ctx, AREAS, JSON_TYPE, async () => {
      const filter = { name, countryCode: country_code, viewport: bbox };
      ctx.body = await collect(areas.list('country', filter, false), countryRecord);
    });
  });
  router.get('/countries/geojson', async (ctx) => {
    const { name, country_code, bbox, geometry, simplify } = parseQuery(CountryBoundaryListQuery, ctx.query);
    await cached(ctx, AREAS, geojsonMediaType(ctx), async () => {
      const filter = { name, countryCode: country_code, viewport: bbox };
      const pages = areas.list('country', filter, geometry === 'shape');
      await sendFeatures(ctx, pages, (doc) => areaFeature(doc, geometry, simplify));
    });
  });
  router.get('/countries/:id/geojson', single('country'));
  router.get('/countries/:id/provinces', childList('country', 'province', provinceRecord));
  router.get('/countries/:id/provinces/geojson', childGeojson('country', 'province'));
  router.get('/provinces/:id/geojson', single('province'));
  router.get('/provinces/:id/municipalities', childList('province', 'municipality', municipalityRecord));
  router.get('/provinces/:id/municipalities/geojson', childGeojson('province', 'municipality'));
  router.get('/cities', async (ctx) => {
    const { name, bbox } = parseQuery(AreaListQuery, ctx.query);
    await cached(ctx, AREAS, JSON_TYPE, async () => {
      ctx.body = await collect(areas.list('city', { name, viewport: bbox }, false), cityRecord);
    });
  });
  router.get('/cities/:id/geojson', single('city'));
  router.get('/cities/:id/suburbs/geojson', childGeojson('city', 'suburb'));
  router.get('/suburbs/:id/buildings/geojson', async (ctx) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    const { geometry, bbox } = parseQuery(BuildingListQuery, ctx.query);
    await cached(ctx, BUILDINGS, geojsonMediaType(ctx), async () => {
      const pages = await areas.suburbBuildings(id, bbox, geometry === 'shape');
      await sendFeatures(ctx, pages, (doc) => buildingFeature(doc, geometry));
    });
  });
}
