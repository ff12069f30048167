/** The shape of one entry of the API reference's route table (./operations.ts), and the tags that group them. */
import type { z } from 'zod';
import { IdParam } from '../schemas/requests.js';

export const TAGS = [
  { name: 'Geocoding', description: 'From what people type to addresses and coordinates, and back.' },
  { name: 'Addresses', description: 'Address records by id.' },
  { name: 'Hierarchy', description: 'Countries › provinces › municipalities, and cities, as JSON lists.' },
  {
    name: 'Boundaries',
    description:
      'GeoJSON FeatureCollections of every level, down to buildings. `geometry=centroid` answers points instead ' +
      'of shapes; `simplify` thins shapes; `bbox` keeps what intersects a viewport. Answers carry an ETag: ' +
      '`If-None-Match` answers 304 while the data has not changed.',
  },
  { name: 'Service', description: 'Health, metrics and this description: no API key needed.' },
] as const;

/**
 * `key`: X-Api-Key (401 without a valid one, 429 past the key's rate limit); `open`: no key; `metrics`: the
 * rule of src/http/metrics.ts (loopback, else METRICS_KEY).
 */
export type Access = 'key' | 'open' | 'metrics';

export interface OperationSpec {
  method: 'get' | 'post';
  /** In OpenAPI form: `/addresses/{id}` (the router's `/addresses/:id`). */
  path: string;
  tag: (typeof TAGS)[number]['name'];
  summary: string;
  /** Markdown. */
  description: string;
  access: Access;
  pathParams?: z.ZodObject;
  /** The handler's query schema; every unknown or repeated parameter is a 400. */
  query?: z.ZodObject;
  body?: z.ZodType;
  ok: {
    description: string;
    schema: z.ZodType;
    /** Also `application/geo+json`, when the request's Accept prefers it (src/http/mediaType.ts). */
    geojson?: boolean;
    mediaType?: string;
  };
  /** Further statuses answered with the same schema as 200 (GET /health's 503), with what each means. */
  sameShape?: Record<string, string>;
  /** What a 404 means on this route; unset: the route has no 404 of its own. */
  notFound?: string;
  /** ETag, Cache-Control and 304 on If-None-Match (src/http/conditional.ts). */
  conditional?: boolean;
  /** Whether Elasticsearch is asked (a 503 when it cannot answer). */
  backend: boolean;
}

/** The `{id}` path parameter, with what it identifies. */
export const idOf = (what: string) => IdParam.extend({ id: IdParam.shape.id.describe(`id of the ${what}`) });
