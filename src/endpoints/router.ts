/** The Koa router derived from the endpoint declarations: one route per declaration, in the list's order. */
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { respondCached } from '../http/conditional.js';
import { geojsonMediaType, JSON_TYPE } from '../http/mediaType.js';
import { preferredLanguage } from '../language/answerLanguage.js';
import { answerOf, asksGeojson, readInput } from './answer.js';
import type { BodyCache } from '../http/bodyCache.js';
import type { HeavyAnswers } from '../http/heavyAnswers.js';
import type { IndexGenerations } from '../indexes/generations.js';
import type { Endpoint } from './endpoint.js';
import { FeatureStream } from './featureStream.js';
import { BinaryAnswer } from './binaryAnswer.js';
import { HeavyJson } from './heavyJson.js';

/** `/addresses/{id}` (OpenAPI, as declared) -> `/addresses/:id` (the router's form). */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

type Input = ReturnType<typeof readInput>;

/**
 * What answers are made with besides the services: for conditional ones (declarations with `reads`) the live
 * generations and the kept bodies; for a heavy answer made in memory (HeavyJson) the heavy-answer limits.
 */
export interface RouterAnswers {
  generations: IndexGenerations;
  /** Rendered boundary and hierarchy answers (src/http/bodyCache.ts). */
  bodies: BodyCache;
  heavy: HeavyAnswers;
}

/**
 * `geojsonType`: the media type of a GeoJSON answer (per Accept); unset, Koa's JSON default. `serialised`: the
 * answer leaves as its JSON text at once, as src/http/compression.ts would make it (Koa then sets the body, its
 * type and length once rather than twice); conditional answers keep the object, which the body cache stores.
 */
async function sendAnswer<D>(
  ctx: Context,
  endpoint: Endpoint<D>,
  input: Input,
  services: D,
  answers: RouterAnswers,
  geojsonType: string | undefined,
  serialised = false,
) {
  const answer = await answerOf(endpoint, input, services);
  if (answer instanceof FeatureStream) return answer.send(ctx);
  if (answer instanceof BinaryAnswer) return answer.send(ctx);
  if (answer instanceof HeavyJson) return answer.send(ctx, answers.heavy);
  if (geojsonType) ctx.type = geojsonType;
  if (serialised && isPlainJson(answer)) {
    // Koa's type for an object body ('json' is the same header as JSON_TYPE), set first so the text keeps it.
    if (!geojsonType) ctx.type = JSON_TYPE;
    ctx.body = JSON.stringify(answer);
  } else ctx.body = answer;
}

/** A record or list, as the declarations' `record` make them (not a buffer, a stream, a string or nothing). */
function isPlainJson(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  return Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;
}

function handlerOf<D>(endpoint: Endpoint<D>, services: D, answers: RouterAnswers): Middleware {
  // Not async: an endpoint without conditional answers (the geocoding ones) is one promise, sendAnswer's; a
  // failed validation is thrown here and becomes a rejection in Koa's dispatch all the same.
  return (ctx) => {
    const acceptLanguage = endpoint.languages ? ctx.get('Accept-Language') || undefined : undefined;
    if (endpoint.languages) ctx.vary('Accept-Language');
    const input = readInput(endpoint, { params: ctx.params, query: ctx.query, body: ctx.request.body, acceptLanguage });
    const geojson = endpoint.ok.geojson === true || asksGeojson(endpoint, input);
    const mediaType = geojson ? geojsonMediaType(ctx) : JSON_TYPE;
    // The media type follows Accept (respondCached says so itself for conditional answers).
    if (geojson) ctx.vary('Accept');
    const { reads } = endpoint;
    if (!reads) return sendAnswer(ctx, endpoint, input, services, answers, geojson ? mediaType : undefined, true);
    const variant = { reads, acceptLanguage, mediaType, geojson };
    return sendConditional(ctx, endpoint, input, services, answers, variant);
  };
}

/** An answer that depends on the index generations it reads: 304 or the body cache's copy when they allow. */
async function sendConditional<D>(
  ctx: Context,
  endpoint: Endpoint<D>,
  input: Input,
  services: D,
  answers: RouterAnswers,
  variant: {
    reads: NonNullable<Endpoint['reads']>;
    acceptLanguage: string | undefined;
    mediaType: string;
    geojson: boolean;
  },
) {
  const { reads, acceptLanguage, mediaType, geojson } = variant;
  const { generations: live, bodies } = answers;
  const generations = await live.of(reads);
  // `lang` is in the query string already; the header's choice joins the tag, not the header's exact text.
  const language = preferredLanguage(acceptLanguage) ?? '';
  // The answer reads the generations its tag names, not whatever the aliases point at by then.
  await respondCached(ctx, { generations, mediaType, language, bodies }, () =>
    live.pinned(reads, generations, () =>
      sendAnswer(ctx, endpoint, input, services, answers, geojson ? mediaType : undefined),
    ),
  );
}

/**
 * The routes, then 405/501 and OPTIONS answers for paths that exist under other methods (@koa/router's
 * allowedMethods). A request for a path without parameters, exactly as declared (most of the traffic: the geocoding
 * endpoints), is dispatched by one map lookup: @koa/router tests every route's pattern and composes a chain for each
 * request, which cost as much as the API-key check. Anything else (ids in the path, other spellings, unknown paths,
 * other methods) goes through @koa/router, which sets the same `_matchedRoute` and `params`.
 */
export function endpointRouter<D>(endpoints: readonly Endpoint<D>[], services: D, answers: RouterAnswers): Middleware {
  // Exact paths, as src/http/routeTable.ts matches them (which answers other spellings 404 before this).
  const router = new Router({ strict: true, sensitive: true });
  const exact = new Map<string, Middleware>();
  for (const endpoint of endpoints) {
    const path = routerPath(endpoint.path);
    const handler = endpoint.serve ? endpoint.serve(services) : handlerOf(endpoint, services, answers);
    router[endpoint.method](path, handler);
    if (path.includes(':')) continue;
    const method = endpoint.method.toUpperCase();
    // @koa/router answers HEAD with the GET route, as Koa then sends no body.
    for (const m of method === 'GET' ? ['GET', 'HEAD'] : [method]) {
      if (!exact.has(`${m} ${path}`)) exact.set(`${m} ${path}`, handler);
    }
  }
  // Typed for the app's plain context: the router adds `params` and `router` to it itself.
  const routes = router.routes() as unknown as Middleware;
  const allowedMethods = router.allowedMethods() as unknown as Middleware;
  const dispatch: Middleware = (ctx, next) => {
    const handler = exact.get(`${ctx.method} ${ctx.path}`);
    if (!handler) return routes(ctx, () => allowedMethods(ctx, next));
    (ctx as { _matchedRoute?: string })._matchedRoute = ctx.path;
    ctx.params = {};
    return handler(ctx, next);
  };
  // Like @koa/router's own middleware, it carries the router (the tests list the routes from it).
  return Object.assign(dispatch, { router });
}
