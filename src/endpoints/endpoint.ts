/**
 * One declaration per endpoint: what the API reference says about it (method, path, schemas, summary, errors)
 * and the handler that answers it. From the list in src/wiring/endpoints.ts the router (./router.ts), request
 * validation and response shaping (./answer.ts), error mapping and the OpenAPI document (src/openapi/document.ts)
 * are derived, so an endpoint is changed in its declaration (and its feature folder) only. A handler receives the
 * services its feature declares (`D`), not the whole service: src/wiring/services.ts builds one object that is all
 * of them.
 */
import type { Middleware } from 'koa';
import type { z } from 'zod';
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import { IdParam } from '../schemas/requests.js';
import type { ErrorShape } from '../http/errors.js';

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
  {
    name: 'Compatibility',
    description:
      'The same search and reverse in the dialects of Nominatim (`/nominatim/`), Photon (`/photon/`) and Pelias ' +
      '(`/pelias/v1/`), for the clients that speak them (geopy, QGIS, Leaflet geocoders, node-geocoder). The key ' +
      'may come as `api_key=` (or `key=`) in the query string; unknown parameters are ignored, errors take the ' +
      "dialect's shape.",
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
  /**
   * The key may also come as `api_key` (or `key`) in the query string, for clients that cannot send a header (the
   * compatibility dialects, tile clients); it is taken out of the URL before anything else reads it
   * (src/http/queryKey.ts).
   */
  keyInQuery?: boolean;
  /**
   * The key may also come first in the path, `/k/<key>/…` (the compatibility dialects: QGIS' Nominatim locator
   * replaces an endpoint's query string and sends no header of ours); it is cut off the path before anything else
   * reads it (src/http/pathKey.ts).
   */
  keyInPath?: boolean;
  /**
   * Errors on this route in another API's shape (a compatibility dialect's, for the clients that parse it); the
   * statuses stay ours. Unset: the JSON error envelope.
   */
  errorShape?: ErrorShape;
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
    /**
     * A result list that also answers as GeoJSON when the query says `format=geojson` (its schema declares
     * `format`): `shape` turns the JSON body into the FeatureCollection `schema` describes, and the media type
     * then follows Accept as with `geojson`.
     */
    geojsonFormat?: { schema: z.ZodType; shape: (body: never) => unknown };
    /** What a 204 No Content means, where the handler may answer one (a BinaryAnswer without a body). */
    noContent?: string;
  };
  /** Further statuses answered with the same schema as 200 (GET /health's 503), with what each means. */
  sameShape?: Record<string, string>;
  /** What a 404 means on this route; unset: the route has no 404 of its own. */
  notFound?: string;
  /**
   * The indexes the answer is built from: set, the answer is conditional (ETag over their generations,
   * Cache-Control, 304 on If-None-Match; src/http/conditional.ts) and kept in the body cache.
   */
  reads?: readonly IndexKind[];
  /** Whether Elasticsearch is asked (a 503 when it cannot answer). */
  backend: boolean;
  /**
   * The answer shows names in the language `lang` or Accept-Language chooses (src/language/answerLanguage.ts):
   * the answer varies by Accept-Language (`Vary`, and the ETag and body cache key name the chosen language).
   */
  languages?: boolean;
}

/** What the router reads from a request, before the declaration's schemas have checked it. */
export interface RawInput {
  params?: unknown;
  query?: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** The request's Accept-Language header. */
  acceptLanguage?: string | undefined;
}

type Parsed<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** The request as the declaration's schemas parsed it. */
export interface Input<P, Q, B> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /** The request's Accept-Language header (answerLanguage() reads it with `lang`). */
  acceptLanguage: string | undefined;
}

/**
 * A declaration as written in a feature folder; `endpointsOf<D>()` checks it and erases its types for the list. `D`:
 * the services its handler uses.
 */
export interface EndpointDeclaration<
  P extends z.ZodObject | undefined,
  Q extends z.ZodObject | undefined,
  B extends z.ZodType | undefined,
  R,
  D,
> extends Omit<OperationSpec, 'pathParams' | 'query' | 'body'> {
  pathParams?: P;
  query?: Q;
  body?: B;
  /**
   * The domain result for the parsed input. `undefined` means nothing matched: a 404 `no_match` with the
   * `noMatch` message (set `noMatch` with `notFound`).
   */
  handle?: (input: Input<P, Q, B>, services: D) => Promise<R | undefined>;
  /** The answer's body from the domain result (the response schema's record); unset: the result itself. */
  record?: (result: R) => unknown;
  /** The message of the 404 `no_match` answered when `handle` finds nothing. */
  noMatch?: string;
  /** The body may be up to BATCH_BODY_LIMIT_BYTES instead of BODY_LIMIT_BYTES. */
  largeBody?: boolean;
  /** Instead of `handle`: a Koa handler of its own (the service endpoints: status codes and text answers). */
  serve?: (services: D) => Middleware;
}

/**
 * A declaration with its schemas' types erased, answered with services `D`. A list of endpoints of several
 * features is an `Endpoint<S>[]` for an `S` that is every feature's services at once.
 */
export type Endpoint<D = never> = EndpointDeclaration<
  z.ZodObject | undefined,
  z.ZodObject | undefined,
  z.ZodType | undefined,
  unknown,
  D
>;

/**
 * The declaring function of a feature whose handlers use services `D`: it types each handler's input from the
 * declaration's schemas and its services from `D`; the list holds them erased.
 */
export function endpointsOf<D>() {
  return <
    P extends z.ZodObject | undefined = undefined,
    Q extends z.ZodObject | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
    R = unknown,
  >(
    declaration: EndpointDeclaration<P, Q, B, R, D>,
  ): Endpoint<D> => declaration as unknown as Endpoint<D>;
}

/** The `{id}` path parameter, with what it identifies. */
export const idOf = (what: string) => IdParam.extend({ id: IdParam.shape.id.describe(`id of the ${what}`) });
