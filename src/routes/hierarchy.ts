import type { estypes } from '@elastic/elasticsearch';
import type Router from '@koa/router';
import type { Feature } from 'geojson';
import type { Context } from 'koa';
import type { AreaDoc, AreaLevel } from '../elasticsearch/documents.js';
import { areaFeature, buildingFeature, featureCollection, type GeometryMode } from '../geojson/features.js';
import { streamFeatureCollection } from '../geojson/streamCollection.js';
import { parseWith } from '../http/validate.js';
import { CountryFilterQuery, GeometryQuery, IdParam, NameFilterQuery } from '../schemas/requests.js';
import type { RouteDeps } from './context.js';

async function* mapPages<T>(pages: AsyncIterable<estypes.SearchHit<T>[]>, toFeature: (doc: T) => Feature) {
  for await (const page of pages) yield page.flatMap((hit) => (hit._source ? [toFeature(hit._source)] : []));
}

async function collect<T, R>(pages: AsyncIterable<estypes.SearchHit<T>[]>, map: (doc: T) => R): Promise<R[]> {
  const out: R[] = [];
  for await (const page of pages) for (const hit of page) if (hit._source) out.push(map(hit._source));
  return out;
}

/**
 * The first page is fetched before the status line goes out, so a backend failure is still a clean 503;
 * later pages stream.
 */
async function sendFeatures<T>(
  ctx: Context,
  pages: AsyncGenerator<estypes.SearchHit<T>[]>,
  toFeature: (doc: T) => Feature,
) {
  const first = await pages.next();
  async function* all() {
    if (first.done) return;
    yield first.value;
    yield* pages;
  }
  ctx.type = 'application/geo+json';
  ctx.body = streamFeatureCollection(mapPages(all(), toFeature));
}

const country = (d: AreaDoc) => ({
  id: d.id,
  name: d.name,
  country_code: d.country_code,
  country_code3: d.country_code3,
  local_identifier: d.local_identifier,
});
const province = (d: AreaDoc) => ({
  id: d.id,
  country_id: d.country_id,
  name: d.name,
  local_identifier: d.local_identifier,
});
const municipality = (d: AreaDoc) => ({
  id: d.id,
  province_id: d.province_id,
  name: d.name,
  local_identifier: d.local_identifier,
});
const city = (d: AreaDoc) => ({
  id: d.id,
  municipality_id: d.municipality_id,
  name: d.name,
  local_identifier: d.local_identifier,
});

/** Parent level -> the field every child carries with the parent's id. */
const PARENT_FIELD: Record<string, string> = {
  country: 'country_id',
  province: 'province_id',
  municipality: 'municipality_id',
  city: 'city_id',
};

export function registerHierarchyRoutes(router: Router, { areas }: RouteDeps): void {
  const single = (level: AreaLevel) => async (ctx: Context) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    const { geometry } = parseWith(GeometryQuery, ctx.query, 'query');
    const doc = await areas.get(level, id, geometry === 'shape');
    ctx.type = 'application/geo+json';
    ctx.body = featureCollection([areaFeature(doc, geometry)]);
  };

  const childPages = async (ctx: Context, parentLevel: AreaLevel, childLevel: AreaLevel, withGeometry: boolean) => {
    const { id } = parseWith(IdParam, ctx.params, 'path');
    const { name } = parseWith(NameFilterQuery, ctx.query, 'query');
    return areas.children(
      { level: parentLevel, id, field: PARENT_FIELD[parentLevel] as string },
      childLevel,
      { name },
      withGeometry,
    );
  };

  const childList =
    <R>(parentLevel: AreaLevel, childLevel: AreaLevel, map: (d: AreaDoc) => R) =>
    async (ctx: Context) => {
      ctx.body = await collect(await childPages(ctx, parentLevel, childLevel, false), map);
    };

  const childGeojson = (parentLevel: AreaLevel, childLevel: AreaLevel) => async (ctx: Context) => {
    const mode: GeometryMode = parseWith(GeometryQuery, ctx.query, 'query').geometry;
    const pages = await childPages(ctx, parentLevel, childLevel, mode === 'shape');
    await sendFeatures(ctx, pages, (doc) => areaFeature(doc, mode));
  };

  router.get('/countries', async (ctx) => {
    const { name, country_code } = parseWith(CountryFilterQuery, ctx.query, 'query');
    ctx.body = await collect(areas.list('country', { name, countryCode: country_code }, false), country);
  });
  router.get('/countries/geojson', async (ctx) => {
    const { name, country_code, geometry } = parseWith(CountryFilterQuery, ctx.query, 'query');
    const pages = areas.list('country', { name, countryCode: country_code }, geometry === 'shape');
    await sendFeatures(ctx, pages, (doc) => areaFeature(doc, geometry));
  });
  router.get('/countries/:id/geojson', single('country'));
  router.get('/countries/:id/provinces', childList('country', 'province', province));
  router.get('/countries/:id/provinces/geojson', childGeojson('country', 'province'));
  router.get('/provinces/:id/geojson', single('province'));
  router.get('/provinces/:id/municipalities', childList('province', 'municipality', municipality));
  router.get('/provinces/:id/municipalities/geojson', childGeojson('province', 'municipality'));
  router.get('/cities', async (ctx) => {
    const { name } = parseWith(NameFilterQuery, ctx.query, 'query');
    ctx.body = await collect(areas.list('city', { name }, false), city);
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
