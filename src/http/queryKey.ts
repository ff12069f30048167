/**
 * The API key in the query string (`api_key=`, or `key=`), for the routes whose clients cannot send an `X-Api-Key`
 * header (geopy's Pelias class, node-geocoder, Leaflet geocoder plugins, tile clients): such a route declares
 * `keyInQuery`. The key is taken out of the request's query string the moment it is read, so nothing after
 * authentication sees it: not validation (no "unknown parameter"), not a log line, a metric label, an error message,
 * an ETag or a body-cache key. The header, where a client sends one, wins.
 */
import type { Context } from 'koa';

/** The query parameters that carry a key, in the order they are read. */
export const QUERY_KEY_PARAMETERS = ['api_key', 'key'] as const;

/**
 * The key `querystring` carries and the query string without it (both parameters removed, the rest in order);
 * undefined key: none given (then the query string is returned as it was).
 */
export function splitQueryKey(querystring: string): { key: string | undefined; rest: string } {
  if (!QUERY_KEY_PARAMETERS.some((name) => querystring.includes(name))) return { key: undefined, rest: querystring };
  const params = new URLSearchParams(querystring);
  let key: string | undefined;
  for (const name of QUERY_KEY_PARAMETERS) {
    key ??= params.get(name) ?? undefined;
    params.delete(name);
  }
  return { key: key || undefined, rest: params.toString() };
}

/** Takes the key out of the request's query string (once per request) when its route accepts one there. */
export function takeQueryKey(ctx: Context, accepts: (path: string) => boolean): string | undefined {
  const state = ctx.state as { queryKey?: string | null };
  if (state.queryKey !== undefined) return state.queryKey ?? undefined;
  state.queryKey = null;
  // The text first: a query string naming no key (nearly every request) never asks which route it is.
  if (!ctx.querystring) return undefined;
  const { key, rest } = splitQueryKey(ctx.querystring);
  if (key === undefined || !accepts(ctx.path)) return undefined;
  ctx.querystring = rest;
  state.queryKey = key;
  return key;
}
