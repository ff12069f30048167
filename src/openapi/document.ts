/**
 * The OpenAPI 3.1 document of the API, generated from the zod schemas the handlers parse and answer with
 * (zod-openapi) and the endpoint declarations it is given (src/wiring/apiDocument.ts gives it the service's). Pure: builds an object; GET /openapi.json serves it.
 */
import { z } from 'zod';
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import {
  DEFAULT_ANON_RATE_LIMIT,
  DEFAULT_BATCH_BODY_LIMIT_BYTES,
  DEFAULT_BODY_LIMIT_BYTES,
} from '../config/service.js';
import { GEOJSON, JSON_TYPE } from '../http/mediaType.js';
import * as responses from '../schemas/responses.js';
import { renderRequestInputs } from './inputOverrides.js';
import { type OperationSpec, TAGS } from '../endpoints/endpoint.js';

/** The version of this description: raise it with every change a client would notice. */
export const API_DESCRIPTION_VERSION = '1.0.0';

/** The deployment's limits (src/config/service.ts), stated in the description so it never contradicts them. */
export interface DocumentedLimits {
  bodyLimitBytes: number;
  batchBodyLimitBytes: number;
  rateLimit: { rps: number; burst: number } | undefined;
  /** Per client address, for requests without a valid key (src/http/anonymousLimit.ts). */
  anonymousRateLimit: { rps: number; burst: number } | undefined;
}

const bytes = (n: number) =>
  n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;

const introduction = ({ bodyLimitBytes, batchBodyLimitBytes, rateLimit, anonymousRateLimit }: DocumentedLimits) =>
  `
Geocoding of Dutch and Belgian addresses and the administrative hierarchy (countries › provinces ›
municipalities, cities › suburbs › buildings › addresses) with GeoJSON for every level.

**Authentication.** Every endpoint but \`/health\` (with \`/health/live\` and \`/health/ready\`), \`/metrics\`, \`/openapi.json\` and \`/docs\` needs the header
\`X-Api-Key\` (the *Authorize* button). A missing or unknown key is a 401.

**Answers.** JSON (\`application/json\`); GeoJSON endpoints (and \`format=geojson\` on the result lists of
\`/search\`, \`/autocomplete\` and \`/reverse\`) answer \`application/geo+json\` instead when the request's
\`Accept\` prefers it. Every answer carries \`X-Request-Id\`. Bodies over 1 KiB are compressed as
\`Accept-Encoding\` asks (gzip, br).

**Errors** are always \`{"error":{"code","message","details"?}}\`; \`details\` name each bad field or parameter
(\`body.number\`, \`query.nmae\`). Unknown, repeated or malformed query parameters and body fields are a 400: a
typo never silently widens a query. \`Retry-After\` comes with every 429 and 503.

**Limits.** ${
    rateLimit
      ? `Each key may make ${rateLimit.rps} requests per second (bursts of ${rateLimit.burst}); keyed answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and a key over its rate gets a 429.`
      : 'This deployment sets no per-key rate limit.'
  } ${
    anonymousRateLimit
      ? `Requests without a valid key (the open endpoints, preflights, 401s) may be made ${anonymousRateLimit.rps} times per second from one address (bursts of ${anonymousRateLimit.burst}), apart from the keys' limits; past that they get a 429.`
      : ''
  } Request bodies are limited to ${bytes(bodyLimitBytes)} (\`/geocode/batch\`: ${bytes(batchBodyLimitBytes)}).
`.trim();

/**
 * Named schemas: listed once under components and referenced wherever an operation uses them. None of them may
 * hold another one (ForwardResult holds MatchQuality, the collections Geometry): zod-openapi then also emits a
 * second, "...Output" copy of the inner one. The inner ones stay inline.
 */
const SCHEMAS = {
  Address: responses.Address,
  LookupResult: responses.LookupResult,
  ForwardResult: responses.ForwardResult,
  Country: responses.Country,
  Province: responses.Province,
  Municipality: responses.Municipality,
  City: responses.City,
  AreaFeatureCollection: responses.AreaFeatureCollection,
  BuildingFeatureCollection: responses.BuildingFeatureCollection,
  AddressFeatureCollection: responses.AddressFeatureCollection,
  ReverseResponse: responses.ReverseResponse,
  AutocompleteSuggestion: responses.AutocompleteSuggestion,
  Health: responses.Health,
  ErrorResponse: responses.ErrorResponse,
};

const header = (description: string): oas31.HeaderObject => ({ description, schema: { type: 'string' } });
const RETRY_AFTER = { 'Retry-After': header('Seconds to wait before retrying') };
const VALIDATORS = {
  ETag: header('Weak tag over the index generation, the normalised request and the media type'),
  'Cache-Control': header('`private, max-age=60`'),
};

/** `id`: listed once under components.responses and referenced by every operation that can answer it. */
const errorAnswer = (description: string, headers?: oas31.HeadersObject, id?: string): ZodOpenApiResponseObject => ({
  ...(id ? { id } : {}),
  description,
  content: { [JSON_TYPE]: { schema: responses.ErrorResponse } },
  ...(headers ? { headers } : {}),
});

const ERRORS = {
  400: errorAnswer(
    '`invalid_request`: bad JSON, or a missing, unknown, repeated or malformed field or parameter',
    undefined,
    'InvalidRequest',
  ),
  401: errorAnswer('`unauthorized`: the X-Api-Key header is missing or not accepted', undefined, 'Unauthorized'),
  413: errorAnswer('`payload_too_large`: the body is over the limit', undefined, 'PayloadTooLarge'),
  415: errorAnswer('`unsupported_media_type`: the body is not sent as `application/json`', undefined, 'NotJson'),
  429: errorAnswer('`rate_limited`: this key has spent its requests for now', RETRY_AFTER, 'RateLimited'),
  anonymous429: errorAnswer(
    '`rate_limited`: too many requests without a valid API key from this address for now',
    RETRY_AFTER,
    'AnonymousRateLimited',
  ),
  503: errorAnswer(
    '`backend_unavailable` (Elasticsearch unreachable, timing out or not loaded) or `overloaded`',
    RETRY_AFTER,
    'Unavailable',
  ),
};

function responsesOf(op: OperationSpec): ZodOpenApiResponsesObject {
  const content = { [op.ok.mediaType ?? JSON_TYPE]: { schema: op.ok.schema } };
  if (op.ok.geojson) content[GEOJSON] = { schema: op.ok.schema };
  let description = op.ok.description;
  const asGeojson = op.ok.geojsonFormat?.schema;
  if (asGeojson) {
    // JSON carries either shape (the `format` parameter picks); application/geo+json only the collection.
    content[JSON_TYPE] = { schema: z.union([op.ok.schema, asGeojson]) };
    content[GEOJSON] = { schema: asGeojson };
    description +=
      '; with `format=geojson` a FeatureCollection of them (`application/geo+json` when Accept prefers it)';
  }
  const out: Record<string, ZodOpenApiResponseObject> = {
    '200': { description, content, ...(op.reads ? { headers: VALIDATORS } : {}) },
  };
  if (op.ok.noContent) out['204'] = { description: op.ok.noContent };
  if (op.reads) {
    out['304'] = { description: 'Not Modified: the `If-None-Match` tag is still current', headers: VALIDATORS };
  }
  for (const [status, description] of Object.entries(op.sameShape ?? {})) {
    out[status] = { description, content: { [JSON_TYPE]: { schema: op.ok.schema } } };
  }
  if (op.pathParams || op.query || op.body) out['400'] = ERRORS[400];
  if (op.access === 'key') out['401'] = ERRORS[401];
  if (op.access === 'metrics') {
    out['401'] = errorAnswer('`unauthorized`: not from loopback, and no valid X-Metrics-Key or Bearer token');
    out['403'] = errorAnswer('`forbidden`: not from loopback, and no METRICS_KEY is configured');
  }
  if (op.notFound) out['404'] = errorAnswer(op.notFound);
  if (op.body) Object.assign(out, { '413': ERRORS[413], '415': ERRORS[415] });
  // Requests without a valid key are limited per client address (ANON_RATE_LIMIT_*), open endpoints included.
  out['429'] = op.access === 'key' ? ERRORS[429] : ERRORS.anonymous429;
  if (op.backend) out['503'] = ERRORS[503];
  return op.errorShape ? inShape(out, op.errorShape.schema) : out;
}

/** A dialect's route: its errors (the same statuses and meanings) in the dialect's own body. */
function inShape(out: Record<string, ZodOpenApiResponseObject>, schema: z.ZodType) {
  return Object.fromEntries(
    Object.entries(out).map(([status, answer]) => {
      if (Number(status) < 400) return [status, answer];
      const { id: _id, content: _content, ...rest } = answer;
      return [status, { ...rest, content: { [JSON_TYPE]: { schema } } }];
    }),
  );
}

const SECURITY: Record<OperationSpec['access'], oas31.SecurityRequirementObject[]> = {
  key: [{ ApiKey: [] }],
  open: [],
  // `{}`: no credentials needed (from loopback).
  metrics: [{}, { MetricsKey: [] }, { MetricsBearer: [] }],
};

/** `get /countries/{id}/provinces` -> `getCountriesByIdProvinces`: unique, and a name in generated clients. */
function operationIdOf({ method, path }: OperationSpec): string {
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const words = path.split(/[^A-Za-z0-9{}]+/).filter(Boolean);
  return method + words.map((w) => (w.startsWith('{') ? `By${capital(w.slice(1, -1))}` : capital(w))).join('');
}

/** A route whose clients cannot send a header also takes the key as `api_key` (or `key`) in the query string. */
const securityOf = (op: OperationSpec) =>
  op.access === 'key' && op.keyInQuery ? [...SECURITY.key, { ApiKeyQuery: [] }] : SECURITY[op.access];

function operationOf(op: OperationSpec): ZodOpenApiOperationObject {
  const header = op.reads
    ? z.object({ 'If-None-Match': z.string().optional().describe('An ETag of an earlier answer: 304 while current') })
    : undefined;
  return {
    operationId: operationIdOf(op),
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    security: securityOf(op),
    requestParams: {
      ...(op.pathParams ? { path: op.pathParams } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(header ? { header } : {}),
    },
    ...(op.body ? { requestBody: { required: true, content: { [JSON_TYPE]: { schema: op.body } } } } : {}),
    responses: responsesOf(op),
  };
}

/** The defaults of src/config/service.ts (tests and tools without a configuration). */
const DEFAULT_LIMITS: DocumentedLimits = {
  bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
  batchBodyLimitBytes: DEFAULT_BATCH_BODY_LIMIT_BYTES,
  rateLimit: undefined,
  anonymousRateLimit: DEFAULT_ANON_RATE_LIMIT,
};

/** Without limits: those of a deployment with the default configuration. */
export function buildOpenApiDocument(
  endpoints: readonly OperationSpec[],
  limits: DocumentedLimits = DEFAULT_LIMITS,
): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of endpoints) (paths[op.path] ??= {})[op.method] = operationOf(op);
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Geocoder API',
        version: API_DESCRIPTION_VERSION,
        description: introduction(limits),
        // What the answers may be used under: they carry OpenStreetMap data (ODbL, the strictest of the sources);
        // CBS/Kadaster (CC BY 4.0), BAG (CC0) and Natural Earth (public domain) ask no more than its attribution.
        license: {
          name: 'ODbL 1.0 (© OpenStreetMap contributors; © CBS / Kadaster, CC BY 4.0)',
          identifier: 'ODbL-1.0',
        },
      },
      // Relative: the document is served by the service it describes, so "Try it out" goes to the same origin
      // whatever host, port or path prefix a deployment has.
      servers: [{ url: '/', description: 'The service serving this document' }],
      tags: [...TAGS],
      security: SECURITY.key,
      paths,
      components: {
        schemas: SCHEMAS,
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          ApiKeyQuery: {
            type: 'apiKey',
            in: 'query',
            name: 'api_key',
            description: 'The key in the query string (or as `key`), on the routes of clients that cannot send headers',
          },
          MetricsKey: { type: 'apiKey', in: 'header', name: 'X-Metrics-Key', description: 'METRICS_KEY' },
          MetricsBearer: { type: 'http', scheme: 'bearer', description: 'METRICS_KEY as a Bearer token' },
        },
      },
    },
    { override: renderRequestInputs },
  );
}
