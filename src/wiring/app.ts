import type { Client } from '@elastic/elasticsearch';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from '../config/service.js';
import { guardOf } from '../../core/elasticsearch/client.js';
import { SearchBatcher } from '../elasticsearch/searchBatcher.js';
import { AnonymousLimit } from '../http/anonymousLimit.js';
import { acceptedKeyOf, apiKeyAuth } from '../http/auth.js';
import { BodyCache } from '../http/bodyCache.js';
import { ByteBudget } from '../http/byteBudget.js';
import { HeavyAnswers } from '../http/heavyAnswers.js';
import { compression } from '../http/compression.js';
import { corsPolicy } from '../http/cors.js';
import { abortStartedResponse, errorEnvelopeWith } from '../http/errors.js';
import { jsonBody } from '../http/jsonBody.js';
import { KeyStore } from '../http/keyStore.js';
import { Metrics } from '../http/metrics.js';
import { rateLimit, TokenBuckets } from '../http/rateLimit.js';
import { requestFrame } from '../http/requestFrame.js';
import { pathKey } from '../http/pathKey.js';
import { dialectSlash } from '../http/dialectSlash.js';
import { countSearch } from '../http/workMeter.js';
import { searchTrace, traceSearch } from '../http/searchTrace.js';
import { ServiceState } from '../http/serviceState.js';
import { apiReferencePage } from '../pages/docs.js';
import { mapPage } from '../pages/mapPage.js';
import { mapBaseOrigins } from '../config/mapBase.js';
import { pagePolicy } from '../http/securityHeaders.js';
import { isOpenPagePath, pagePaths, staticPages } from '../http/staticFiles.js';
import { routeGate } from '../http/routeGate.js';
import { RouteTable } from '../http/routeTable.js';
import { endpointRouter } from '../endpoints/router.js';
import { apiDocument } from './apiDocument.js';
import { ENDPOINTS } from './endpoints.js';
import { buildSearchServices, type SearchStack, type Services } from './services.js';
import { BATCH_MSEARCH_SEARCHES } from '../features/address/batchGeocoding.js';
import { HealthRepository } from '../indexes/health.js';
import { TileSeeds } from '../features/tiles/seed/tileSeeds.js';

export interface AppOptions {
  config: Config;
  client: Client;
  logger: Logger;
  /** Milliseconds clock of the rate limiters and of the health check's cache (tests pass a fake one). */
  now?: () => number;
  /** Draining after SIGTERM (src/server.ts sets it); readiness answers 503 from then on. */
  state?: ServiceState;
  /**
   * The boundary tiles cut ahead; by default made from `config.tileSeeding` (tests pass their own: one whose worker
   * hangs, or whose changes they await).
   */
  tileSeeds?: TileSeeds;
}

/** Declared without a key (/metrics has its own access rule, src/http/metrics.ts). */
const OPEN_PATHS = new Set(ENDPOINTS.filter((endpoint) => endpoint.access !== 'key').map((endpoint) => endpoint.path));
/** The endpoints whose bodies may be up to BATCH_BODY_LIMIT_BYTES. */
const LARGE_BODY_PATHS = ENDPOINTS.filter((endpoint) => endpoint.largeBody).map((endpoint) => endpoint.path);
/** The routes whose errors take a dialect's shape (their paths are exact, without parameters). */
const ERROR_SHAPES = new Map(ENDPOINTS.flatMap((e) => (e.errorShape ? [[e.path, e.errorShape] as const] : [])));

/** `/health//` -> `/health`; `/` stays `/`. */
const withoutTrailingSlashes = (path: string) => path.replace(/(?<=.)\/+$/, '');

export function createApp(options: AppOptions): Koa {
  const app = new Koa();
  // ctx.ip names the client behind a proxy only when its X-Forwarded-For is trusted (a client can write one).
  app.proxy = options.config.trustProxy;
  // Errors are answered and logged by our own middleware; Koa's default handler would print stack traces.
  app.silent = true;
  const resolved = { ...options, state: options.state ?? new ServiceState() };
  const parts = serviceParts(app, resolved);
  useMiddleware(app, resolved, parts, pathRules(options.config));
  return app;
}

/** What the middleware and the endpoints use: the services, the key store, the metrics and the body cache. */
interface ServiceParts {
  services: Services;
  generations: SearchStack['generations'];
  keys: KeyStore;
  metrics: Metrics;
  bodies: BodyCache;
  heavy: HeavyAnswers;
}

function serviceParts(
  app: Koa,
  { config, client, logger, now, state, tileSeeds }: AppOptions & { state: ServiceState },
): ServiceParts {
  const guard = guardOf(client);
  guard?.onStateChange((state) => logger.warn({ breaker: state }, `elasticsearch circuit breaker ${state}`));
  const metrics = new Metrics(() => guard?.stats());
  // Only a body stream's failure or the client's leaving mid-body gets here (errorEnvelope answers every other):
  // the answer has started.
  app.on('error', (error: Error, ctx?: Koa.Context) => {
    // Once per answer: a compressed body reports the failure twice (the source stream and the compressor).
    if (!ctx || ctx.state.responseBroken) return;
    ctx.state.responseBroken = true;
    // A client that left mid-body is logged at info and not counted: only our own failures are broken answers.
    if (abortStartedResponse(ctx, error, logger) === 'broken') metrics.countBrokenResponse(ctx);
  });
  const keys = new KeyStore(
    config.apiKeyDigests,
    config.apiKeysFile ? { path: config.apiKeysFile, fixed: config.envKeyDigests, logger } : undefined,
  ).watch();
  // Every search is counted for the asking request; under SEARCH_TRACE it is traced too.
  const onSearch = config.searchTrace ? () => (countSearch(), traceSearch()) : countSearch;
  const searcher = new SearchBatcher(client, config.esBatchMax, metrics.observeBatch, onSearch);
  // Batch items' searches coalesce apart from single requests' (a fast search never waits behind a batch's).
  const batchSearcher = new SearchBatcher(client, BATCH_MSEARCH_SEARCHES, metrics.observeBatch, countSearch);
  const elasticsearch = config.elasticsearchUrl
    ? { url: config.elasticsearchUrl, requestTimeoutMs: config.esRequestTimeoutMs }
    : undefined;
  const search = buildSearchServices({
    client,
    indexPrefix: config.indexPrefix,
    searcher,
    batchSearcher,
    logger,
    tileSeeds: tileSeeds ?? new TileSeeds(config.tileSeeding, elasticsearch, logger),
  });
  // One budget for what answers in flight hold for their clients, whatever holds it (src/http/byteBudget.ts).
  const inFlight = new ByteBudget(config.answersInFlightBytes);
  const heavy = new HeavyAnswers(config.heavyAnswers, inFlight);
  const bodies = new BodyCache(config.bodyCacheBytes, heavy, inFlight);
  const services: Services = {
    ...search,
    health: new HealthRepository(client, config.indexPrefix, now),
    bodies,
    guard: () => guard?.stats(),
    tileSeeding: () => search.boundaryTiles.seeding(),
    logger,
    state,
    metrics,
    metricsKeyDigest: config.metricsKeyDigest,
    // Rendered once: the schemas do not change while the process runs.
    apiDocument: JSON.stringify(apiDocument(config)),
  };
  return { services, generations: search.generations, keys, metrics, bodies, heavy };
}

/** Which paths are pages, open, routes, and where a key may stand in them. */
function pathRules(config: Config) {
  // The pages load before a user has typed a key (the map page asks for it).
  const pages = [apiReferencePage(), mapPage(config.mapBase)];
  const pagePrefixes = pages.map((page) => page.prefix);
  // A public path with trailing slashes (`/health/`, `/openapi.json/`) is not a route (the route gate answers 404)
  // but no key would make it one: it passes authentication as its public path does, never a 401.
  const isPublic = (path: string) => OPEN_PATHS.has(path) || isOpenPagePath(path, pagePrefixes);
  const isOpenPath = (path: string) => isPublic(path) || isPublic(withoutTrailingSlashes(path));
  // Every rule above and below matches paths exactly as declared: other spellings are unknown paths (404).
  const routes = new RouteTable([...ENDPOINTS, ...pagePaths(pages).map((path) => ({ method: 'get', path }))]);
  const queryKeyRoutes = new RouteTable(ENDPOINTS.filter((endpoint) => endpoint.keyInQuery));
  const pathKeyRoutes = new RouteTable(ENDPOINTS.filter((endpoint) => endpoint.keyInPath));
  const keyPlaces = {
    query: (path: string) => queryKeyRoutes.resolve('GET', path).kind !== 'not_found',
    path: (path: string) => pathKeyRoutes.resolve('GET', path).kind !== 'not_found',
  };
  return { pages, isOpenPath, routes, keyPlaces };
}

/** The middleware, in order. */
function useMiddleware(
  app: Koa,
  { config, logger, now, state }: AppOptions & { state: ServiceState },
  { services, generations, keys, metrics, bodies, heavy }: ServiceParts,
  { pages, isOpenPath, routes, keyPlaces }: ReturnType<typeof pathRules>,
): void {
  // Requests without a valid key: limited per client address, apart from the keys' buckets (issue 22).
  const anonymous = config.anonymousRateLimit
    ? new AnonymousLimit(new TokenBuckets(config.anonymousRateLimit, now, config.anonymousAddresses), {
        trustProxy: config.trustProxy,
        holdMs: config.anonymousRefusalHoldMs,
        onLimited: metrics.countRateLimited,
        now,
      })
    : undefined;

  // A debug switch: what each request waited for, in a header (a load probe's record of its slowest percent).
  if (config.searchTrace) app.use(searchTrace());
  // Before anything reads the path: a key in it (`/k/<key>/…`) is cut off, for authentication only.
  app.use(pathKey());
  // And a dialect's path with a trailing slash (a client's default, as Leaflet's Photon `…/api/`) is its path.
  app.use(dialectSlash(keyPlaces.path));
  // Then a flood without a key is refused before any other middleware spends anything on it.
  if (anonymous) app.use(anonymous.gate(logger, (ctx) => acceptedKeyOf(keys, ctx, keyPlaces) !== undefined));
  // The request's id and log line, its metrics, security headers and the draining notice: one layer.
  app.use(requestFrame(logger, metrics, state, pagePolicy(mapBaseOrigins(config.mapBase))));
  // Before authentication (a preflight carries no key) and outside the error envelope (errors keep CORS).
  app.use(corsPolicy(config.corsOrigins));
  // Outermost body transformer: it sees the final body of every answer, error envelopes and streams included.
  app.use(compression());
  app.use(errorEnvelopeWith((path) => ERROR_SHAPES.get(path)));
  app.use(apiKeyAuth(keys, isOpenPath, keyPlaces, anonymous));
  if (config.rateLimit) app.use(rateLimit(new TokenBuckets(config.rateLimit, now), metrics.countRateLimited));
  app.use(routeGate(routes));
  const largeBodies = Object.fromEntries(LARGE_BODY_PATHS.map((path) => [path, config.batchBodyLimitBytes]));
  app.use(jsonBody(config.bodyLimitBytes, largeBodies));
  app.use(staticPages(pages));
  app.use(endpointRouter(ENDPOINTS, services, { generations, bodies, heavy }));
}
