/** The service's own endpoints, open without an API key: health, metrics and the API description. */
import { endpointsOf } from '../../endpoints/endpoint.js';
import { METRICS_PATH } from '../../http/metrics.js';
import { JSON_TYPE } from '../../http/mediaType.js';
import { Health, Liveness, MetricsText, OpenApiDocument, Readiness } from '../../schemas/responses.js';
import type { Metrics } from '../../http/metrics.js';
import { type HealthServices, serveHealth, serveLiveness, serveReadiness } from './health.js';

/** The services the service's own endpoints use (src/wiring/services.ts builds them). */
export interface ServiceEndpointServices extends HealthServices {
  metrics: Metrics;
  /** METRICS_KEY's digest: GET /metrics from anywhere but loopback (src/http/metrics.ts). */
  metricsKeyDigest: string | undefined;
  /** The OpenAPI document, rendered once at start-up (the schemas do not change while the process runs). */
  apiDocument: string;
}

const endpoint = endpointsOf<ServiceEndpointServices>();

export const healthEndpoint = endpoint({
  method: 'get',
  path: '/health',
  tag: 'Service',
  summary: 'Service and Elasticsearch health',
  description:
    'For load balancers: 200 `ok` while Elasticsearch answers and every index is loaded; 503 otherwise. With a ' +
    'valid key also the Elasticsearch version, the indexes, the body cache, the tile seeding and the circuit ' +
    'breaker around Elasticsearch; without one the status alone.',
  access: 'open',
  ok: { description: '`status: ok`', schema: Health },
  sameShape: {
    '503':
      '`not_loaded` (Elasticsearch answers, an index is missing: `null`), `unavailable` (no answer) or ' +
      '`draining` (shutting down)',
  },
  backend: false,
  serve: serveHealth,
});

export const livenessEndpoint = endpoint({
  method: 'get',
  path: '/health/live',
  tag: 'Service',
  summary: 'Liveness',
  description: 'For a liveness probe: 200 while the process answers HTTP. Asks Elasticsearch nothing.',
  access: 'open',
  ok: { description: '`status: ok`', schema: Liveness },
  backend: false,
  serve: serveLiveness,
});

export const readinessEndpoint = endpoint({
  method: 'get',
  path: '/health/ready',
  tag: 'Service',
  summary: 'Readiness',
  description:
    'For a readiness probe or load balancer: the status of `/health` without the details. One check of ' +
    'Elasticsearch serves every caller for about a second.',
  access: 'open',
  ok: { description: '`status: ok`', schema: Readiness },
  sameShape: { '503': '`not_loaded`, `unavailable` or `draining` (shutting down: take it out of rotation)' },
  backend: false,
  serve: serveReadiness,
});

export const metricsEndpoint = endpoint({
  method: 'get',
  path: METRICS_PATH,
  tag: 'Service',
  summary: 'Prometheus metrics',
  description:
    'Requests by route and status, latency, Elasticsearch round trips, breaker state. No key from loopback ' +
    '(the socket peer, not behind a proxy); from anywhere else `X-Metrics-Key` or `Authorization: Bearer` ' +
    'with METRICS_KEY (403 when none is configured).',
  access: 'metrics',
  ok: { description: 'The metrics', schema: MetricsText, mediaType: 'text/plain' },
  backend: false,
  serve: ({ metrics, metricsKeyDigest }) => metrics.endpoint(metricsKeyDigest),
});

/** GET /openapi.json; the Swagger UI page on it is served at /docs (src/pages/docs.ts). */
export const openApiEndpoint = endpoint({
  method: 'get',
  path: '/openapi.json',
  tag: 'Service',
  summary: 'This API description',
  description: 'The OpenAPI 3.1 document, generated from the schemas the service validates with. Rendered at `/docs`.',
  access: 'open',
  ok: { description: 'The OpenAPI document', schema: OpenApiDocument },
  backend: false,
  serve:
    ({ apiDocument }) =>
    (ctx) => {
      ctx.type = JSON_TYPE;
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = apiDocument;
    },
});
