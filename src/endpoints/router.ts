/** The Koa router derived from the endpoint declarations: one route per declaration, in the list's order. */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { respondCached } from '../http/conditional.js';
import { geojsonMediaType, JSON_TYPE } from '../http/mediaType.js';
import { preferredLanguage } from '../language/answerLanguage.js';
import { answerOf, asksGeojson, readInput } from './answer.js';
import type { ServiceDeps } from './deps.js';
import type { Endpoint } from './endpoint.js';
import { FeatureStream } from './featureStream.js';

/** `/addresses/{id}` (OpenAPI, as declared) -> `/addresses/:id` (the router's form). */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function handlerOf(endpoint: Endpoint, deps: ServiceDeps): Middleware {
  return async (ctx) => {
    const acceptLanguage = endpoint.languages ? ctx.get('Accept-Language') || undefined : undefined;
    if (endpoint.languages) ctx.vary('Accept-Language');
    const input = readInput(endpoint, { params: ctx.params, query: ctx.query, body: ctx.request.body, acceptLanguage });
    const geojson = endpoint.ok.geojson === true || asksGeojson(endpoint, input);
    const mediaType = geojson ? geojsonMediaType(ctx) : JSON_TYPE;
    // The media type follows Accept (respondCached says so itself for conditional answers).
    if (geojson) ctx.vary('Accept');
    const send = async () => {
      const answer = await answerOf(endpoint, input, deps);
      if (answer instanceof FeatureStream) return answer.send(ctx);
      if (geojson) ctx.type = mediaType;
      ctx.body = answer;
    };
    if (!endpoint.reads) return send();
    const generations = await deps.generations.of(endpoint.reads);
    // `lang` is in the query string already; the header's choice joins the tag, not the header's exact text.
    const language = preferredLanguage(acceptLanguage) ?? '';
    await respondCached(ctx, { generations, mediaType, language, bodies: deps.bodies }, send);
  };
}

export function endpointRouter(endpoints: readonly Endpoint[], deps: ServiceDeps): Router {
  const router = new Router();
  for (const endpoint of endpoints) {
    const path = routerPath(endpoint.path);
    router[endpoint.method](path, endpoint.serve ? endpoint.serve(deps) : handlerOf(endpoint, deps));
  }
  return router;
}
