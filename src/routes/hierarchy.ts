import type Router from '@koa/router';
import type { Feature } from 'geojson';
import type { Context } from 'koa';
import type { AreaDoc, AreaLevel } from '../elasticsearch/documents.js';
import { areaFeature, buildingFeature, featureCollection } from '../geojson/features.js';
import { streamFeatureCollection } from '../geojson/streamCollection.js';
import { parseWith } from '../http/validate.js';
import { cityRecord, countryRecord, municipalityRecord, provinceRecord } from '../records/areaRecords.js';
import type { DocPages } from '../repository/paging.js';
import { CountryFilterQuery, GeometryQuery, IdParam, NameFilterQuery } from '../schemas/requests.js';
import type { RouteDeps } from './context.js';

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
  ctx.type = 'application/geo+json';
  ctx.body = streamFeatureCollection(mapPages(all(), toFeature));
}

export function registerHierarchyRoutes(router: Router, { areas }: RouteDeps): void {
  const single = (level: AreaLevel) => async (ctx: Context) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    const { geometry } = parseWith(GeometryQuery, ctx.query, 'query');
    const doc = await areas.get(level, id, geometry === 'shape');
    ctx.type = 'application/geo+json';
    ctx.body = featureCollection([areaFeature(doc, geometry)]);
  };

  const childList =
    <R>(parentLevel: AreaLevel, childLevel: AreaLevel, record: (d: AreaDoc) => R) =>
    async (ctx: Context) => {
      const { id } = parseWith(IdParam, ctx.params, 'path');
      const { name } = parseWith(NameFilterQuery, ctx.query, 'query');
      ctx.body = await collect(await areas.children({ level: parentLevel, id }, childLevel, { name }, false), record);
    };

  const childGeojson = (parentLevel: AreaLevel, childLevel: AreaLevel) => async (ctx: Context) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    const { name, geometry } = parseWith(NameFilterQuery, ctx.query, 'query');
    const pages = await areas.children({ level: parentLevel, id }, childLevel, { name }, geometry === 'shape');
    await sendFeatures(ctx, pages, (doc) => areaFeature(doc, geometry));
  };

  router.get('/countries', async (ctx) => {
    const { name, country_code } = parseWith(CountryFilterQuery, ctx.query, 'query');
    ctx.body = await collect(areas.list('country', { name, countryCode: country_code }, false), countryRecord);
  });
  router.get('/countries/geojson', async (ctx) => {
    const { name, country_code, geometry } = parseWith(CountryFilterQuery, ctx.query, 'query');
    const pages = areas.list('country', { name, countryCode: country_code }, geometry === 'shape');
    await sendFeatures(ctx, pages, (doc) => areaFeature(doc, geometry));
  });
  router.get('/countries/:id/geojson', single('country'));
  router.get('/countries/:id/provinces', childList('country', 'province', provinceRecord));
  router.get('/countries/:id/provinces/geojson', childGeojson('country', 'province'));
  router.get('/provinces/:id/geojson', single('province'));
  router.get('/provinces/:id/municipalities', childList('province', 'municipality', municipalityRecord));
  router.get('/provinces/:id/municipalities/geojson', childGeojson('province', 'municipality'));
  router.get('/cities', async (ctx) => {
    const { name } = parseWith(NameFilterQuery, ctx.query, 'query');
    ctx.body = await collect(areas.list('city', { name }, false), cityRecord);
  });
  router.get('/cities/:id/geojson', single('city'));
  router.get('/cities/:id/suburbs/geojson', childGeojson('city', 'suburb'));
  router.get('/suburbs/:id/buildings/geojson', async (ctx) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    const { geometry } = parseWith(GeometryQuery, ctx.query, 'query');
    const pages = await areas.suburbBuildings(id, geometry === 'shape');
    await sendFeatures(ctx, pages, (doc) => buildingFeature(doc, geometry));
  });
}
