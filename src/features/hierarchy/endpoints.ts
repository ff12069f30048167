/**
 * The hierarchy's endpoints: JSON lists of countries › provinces › municipalities and cities, and the GeoJSON
 * boundaries of every level down to buildings. Every answer is conditional on the generations it reads
 * (`reads`, src/http/conditional.ts); boundary lists stream (src/endpoints/featureStream.ts).
 */
import { areaLocaliser } from './areaLanguage.js';
import type { z } from 'zod';
import type { AreaDoc, AreaLevel } from '../../../core/elasticsearch/documents.js';
import { endpointsOf, idOf, type Endpoint } from '../../endpoints/endpoint.js';
import type { AreaRepository } from './areaRepository.js';
import { FeatureStream } from '../../endpoints/featureStream.js';
import { areaFeature, buildingFeature, featureCollection } from '../../geojson/features.js';
import {
  AreaListQuery,
  BoundaryListQuery,
  BoundaryQuery,
  BuildingListQuery,
  CountryBoundaryListQuery,
  CountryListQuery,
  MAX_SIMPLIFY_METRES,
} from '../../schemas/requests.js';
import {
  AreaFeatureCollection,
  BuildingFeatureCollection,
  CityList,
  CountryList,
  MunicipalityList,
  ProvinceList,
} from '../../schemas/responses.js';
import { cityRecord, countryRecord, municipalityRecord, provinceRecord } from './areaRecords.js';

/** The services the hierarchy's endpoints use (src/wiring/services.ts builds them). */
export interface HierarchyServices {
  areas: AreaRepository;
}

const endpoint = endpointsOf<HierarchyServices>();

async function collect<T, R>(pages: AsyncIterable<T[]>, map: (doc: T) => R): Promise<R[]> {
  const out: R[] = [];
  for await (const page of pages) for (const doc of page) out.push(map(doc));
  return out;
}

const AREAS = ['areas'] as const;
/** A suburb's buildings also read the areas index (the suburb's existence check). */
const BUILDINGS = ['areas', 'buildings'] as const;

const LIST_FILTERS =
  '`lang` (nl, fr, de) or Accept-Language picks the name shown where an area has several (`names`), else the ' +
  'language the `name` filter matched. `name` keeps the records whose name matches (case and accents ignored; words by prefix); `bbox` those whose ' +
  'envelope intersects the viewport.';

const SHAPES =
  '`geometry=centroid`: a Point per feature instead of its shape. `simplify=<metres>` (shapes only, at most ' +
  `${MAX_SIMPLIFY_METRES}): Douglas-Peucker per feature; neighbours do not keep shared edges.`;

/** `provinces` -> `province`, `municipalities` -> `municipality`. */
const singular = (plural: string) => plural.replace(/ies$/, 'y').replace(/s$/, '');

const oneBoundary = (level: AreaLevel, levels: string): Endpoint<HierarchyServices> =>
  endpoint({
    method: 'get',
    path: `/${levels}/{id}/geojson`,
    tag: 'Boundaries',
    summary: `One ${level} boundary`,
    description: `The ${level} as a FeatureCollection of one feature. ${SHAPES}`,
    access: 'key',
    pathParams: idOf(level),
    query: BoundaryQuery,
    ok: { description: `The ${level}`, schema: AreaFeatureCollection, geojson: true },
    notFound: `No ${level} has this id`,
    reads: AREAS,
    backend: true,
    languages: true,
    handle: async ({ params, query: { geometry, simplify, lang }, acceptLanguage }, { areas }) => {
      const area = areaLocaliser(
        { lang, acceptLanguage },
        undefined,
      )(await areas.get(level, params.id, geometry === 'shape'));
      return featureCollection([areaFeature(area, geometry, simplify)]);
    },
  });

const childBoundaries = (
  parent: AreaLevel,
  parents: string,
  child: AreaLevel,
  children: string,
): Endpoint<HierarchyServices> =>
  endpoint({
    method: 'get',
    path: `/${parents}/{id}/${children}/geojson`,
    tag: 'Boundaries',
    summary: `The ${children} of a ${parent}, as boundaries`,
    description:
      `Every ${singular(children)} of the ${parent}, streamed as one FeatureCollection (no paging: the ` +
      `whole list). ${LIST_FILTERS} ${SHAPES}`,
    access: 'key',
    pathParams: idOf(parent),
    query: BoundaryListQuery,
    ok: {
      description: `The ${children}, \`[]\` features when none match`,
      schema: AreaFeatureCollection,
      geojson: true,
    },
    notFound: `No ${parent} has this id`,
    reads: AREAS,
    backend: true,
    languages: true,
    handle: async ({ params, query: { name, bbox, geometry, simplify, lang }, acceptLanguage }, { areas }) => {
      const filter = { name, viewport: bbox };
      const pages = await areas.children({ level: parent, id: params.id }, child, filter, geometry === 'shape');
      const inLanguage = areaLocaliser({ lang, acceptLanguage }, name);
      return new FeatureStream(pages, (doc) => areaFeature(inLanguage(doc), geometry, simplify));
    },
  });

const childList = <R>(
  parent: AreaLevel,
  parents: string,
  child: AreaLevel,
  children: string,
  schema: z.ZodType,
  record: (doc: AreaDoc) => R,
): Endpoint<HierarchyServices> =>
  endpoint({
    method: 'get',
    path: `/${parents}/{id}/${children}`,
    tag: 'Hierarchy',
    summary: `The ${children} of a ${parent}`,
    description: `Every ${singular(children)} of the ${parent} (no paging). ${LIST_FILTERS}`,
    access: 'key',
    pathParams: idOf(parent),
    query: AreaListQuery,
    ok: { description: `The ${children}, \`[]\` when none match`, schema },
    notFound: `No ${parent} has this id`,
    reads: AREAS,
    backend: true,
    languages: true,
    handle: async ({ params, query: { name, bbox, lang }, acceptLanguage }, { areas }) => {
      const inLanguage = areaLocaliser({ lang, acceptLanguage }, name);
      const pages = await areas.children({ level: parent, id: params.id }, child, { name, viewport: bbox }, false);
      return collect(pages, (doc) => record(inLanguage(doc)));
    },
  });

export const HIERARCHY_ENDPOINTS: readonly Endpoint<HierarchyServices>[] = [
  endpoint({
    method: 'get',
    path: '/countries',
    tag: 'Hierarchy',
    summary: 'Countries, to find their ids',
    description: `Every country (no paging). ${LIST_FILTERS} \`country_code\`: ISO 3166-1 alpha-2 or alpha-3, any case.`,
    access: 'key',
    query: CountryListQuery,
    ok: { description: 'The countries, `[]` when none match', schema: CountryList },
    reads: AREAS,
    backend: true,
    languages: true,
    handle: ({ query: { name, country_code, bbox, lang }, acceptLanguage }, { areas }) => {
      const inLanguage = areaLocaliser({ lang, acceptLanguage }, name);
      const pages = areas.list('country', { name, countryCode: country_code, viewport: bbox }, false);
      return collect(pages, (doc) => countryRecord(inLanguage(doc)));
    },
  }),
  endpoint({
    method: 'get',
    path: '/countries/geojson',
    tag: 'Boundaries',
    summary: 'Country boundaries',
    description:
      'Every country, streamed as one FeatureCollection (no paging). ' +
      `${LIST_FILTERS} \`country_code\`: ISO 3166-1 alpha-2 or alpha-3. ${SHAPES}`,
    access: 'key',
    query: CountryBoundaryListQuery,
    ok: { description: 'The countries', schema: AreaFeatureCollection, geojson: true },
    reads: AREAS,
    backend: true,
    languages: true,
    // eslint-disable-next-line @typescript-eslint/require-await -- the handlers' contract is async; this one answers a stream at once
    handle: async ({ query: { name, country_code, bbox, geometry, simplify, lang }, acceptLanguage }, { areas }) => {
      const filter = { name, countryCode: country_code, viewport: bbox };
      const pages = areas.list('country', filter, geometry === 'shape');
      const inLanguage = areaLocaliser({ lang, acceptLanguage }, name);
      return new FeatureStream(pages, (doc) => areaFeature(inLanguage(doc), geometry, simplify));
    },
  }),
  oneBoundary('country', 'countries'),
  childList('country', 'countries', 'province', 'provinces', ProvinceList, provinceRecord),
  childBoundaries('country', 'countries', 'province', 'provinces'),
  oneBoundary('province', 'provinces'),
  childList('province', 'provinces', 'municipality', 'municipalities', MunicipalityList, municipalityRecord),
  childBoundaries('province', 'provinces', 'municipality', 'municipalities'),
  // Beyond the contract: every area id /search answers can be drawn by its own id (the map page's outlines).
  oneBoundary('municipality', 'municipalities'),
  endpoint({
    method: 'get',
    path: '/cities',
    tag: 'Hierarchy',
    summary: 'Cities, to find their ids',
    description: `Every city (woonplaats; no paging). ${LIST_FILTERS}`,
    access: 'key',
    query: AreaListQuery,
    ok: { description: 'The cities, `[]` when none match', schema: CityList },
    reads: AREAS,
    backend: true,
    languages: true,
    handle: ({ query: { name, bbox, lang }, acceptLanguage }, { areas }) => {
      const inLanguage = areaLocaliser({ lang, acceptLanguage }, name);
      return collect(areas.list('city', { name, viewport: bbox }, false), (doc) => cityRecord(inLanguage(doc)));
    },
  }),
  oneBoundary('city', 'cities'),
  childBoundaries('city', 'cities', 'suburb', 'suburbs'),
  oneBoundary('suburb', 'suburbs'),
  endpoint({
    method: 'get',
    path: '/suburbs/{id}/buildings/geojson',
    tag: 'Boundaries',
    summary: 'The buildings of a suburb',
    description:
      'Every building footprint of the suburb, streamed as one FeatureCollection (no paging: use `bbox` to keep ' +
      'to a viewport). `geometry=centroid`: points instead of footprints. Footprints are never simplified.',
    access: 'key',
    pathParams: idOf('suburb'),
    query: BuildingListQuery,
    ok: { description: 'The buildings', schema: BuildingFeatureCollection, geojson: true },
    notFound: 'No suburb has this id',
    reads: BUILDINGS,
    backend: true,
    handle: async ({ params, query: { geometry, bbox } }, { areas }) => {
      const pages = await areas.suburbBuildings(params.id, bbox, geometry === 'shape');
      return new FeatureStream(pages, (doc) => buildingFeature(doc, geometry));
    },
  }),
];
