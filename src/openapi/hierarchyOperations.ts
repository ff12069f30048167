/**
 * The hierarchy's routes in the API reference: JSON lists of countries › provinces › municipalities and cities,
 * and the GeoJSON boundaries of every level down to buildings.
 */
import type { z } from 'zod';
import {
  AreaListQuery,
  BoundaryListQuery,
  BoundaryQuery,
  BuildingListQuery,
  CountryBoundaryListQuery,
  CountryListQuery,
  MAX_SIMPLIFY_METRES,
} from '../schemas/requests.js';
import {
  AreaFeatureCollection,
  BuildingFeatureCollection,
  CityList,
  CountryList,
  MunicipalityList,
  ProvinceList,
} from '../schemas/responses.js';
import { idOf, type OperationSpec } from './operationSpec.js';

const LIST_FILTERS =
  '`name` keeps the records whose name matches (case and accents ignored; words by prefix); `bbox` those whose ' +
  'envelope intersects the viewport.';

const SHAPES =
  '`geometry=centroid`: a Point per feature instead of its shape. `simplify=<metres>` (shapes only, at most ' +
  `${MAX_SIMPLIFY_METRES}): Douglas-Peucker per feature; neighbours do not keep shared edges.`;

/** `provinces` -> `province`, `municipalities` -> `municipality`. */
const singular = (plural: string) => plural.replace(/ies$/, 'y').replace(/s$/, '');

const ONE_BOUNDARY = (level: string, levels: string): OperationSpec => ({
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
  conditional: true,
  backend: true,
});

const CHILD_BOUNDARIES = (parent: string, parents: string, children: string): OperationSpec => ({
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
  ok: { description: `The ${children}, \`[]\` features when none match`, schema: AreaFeatureCollection, geojson: true },
  notFound: `No ${parent} has this id`,
  conditional: true,
  backend: true,
});

const CHILD_LIST = (parent: string, parents: string, children: string, schema: z.ZodType): OperationSpec => ({
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
  conditional: true,
  backend: true,
});

export const HIERARCHY_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: '/countries',
    tag: 'Hierarchy',
    summary: 'Countries, to find their ids',
    description: `Every country (no paging). ${LIST_FILTERS} \`country_code\`: ISO 3166-1 alpha-2 or alpha-3, any case.`,
    access: 'key',
    query: CountryListQuery,
    ok: { description: 'The countries, `[]` when none match', schema: CountryList },
    conditional: true,
    backend: true,
  },
  {
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
    conditional: true,
    backend: true,
  },
  ONE_BOUNDARY('country', 'countries'),
  CHILD_LIST('country', 'countries', 'provinces', ProvinceList),
  CHILD_BOUNDARIES('country', 'countries', 'provinces'),
  ONE_BOUNDARY('province', 'provinces'),
  CHILD_LIST('province', 'provinces', 'municipalities', MunicipalityList),
  CHILD_BOUNDARIES('province', 'provinces', 'municipalities'),
  {
    method: 'get',
    path: '/cities',
    tag: 'Hierarchy',
    summary: 'Cities, to find their ids',
    description: `Every city (woonplaats; no paging). ${LIST_FILTERS}`,
    access: 'key',
    query: AreaListQuery,
    ok: { description: 'The cities, `[]` when none match', schema: CityList },
    conditional: true,
    backend: true,
  },
  ONE_BOUNDARY('city', 'cities'),
  CHILD_BOUNDARIES('city', 'cities', 'suburbs'),
  {
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
    conditional: true,
    backend: true,
  },
];
