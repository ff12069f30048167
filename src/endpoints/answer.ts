/** An endpoint's answer from its declaration, without Koa: what the router and the batch both run. */
import { ApiError } from '../http/errors.js';
import { parseQuery, parseWith } from '../http/validate.js';
import type { Endpoint, Input, RawInput } from './endpoint.js';

type AnyInput = Input<unknown, unknown, unknown>;

/**
 * The request checked by the declaration's schemas: path, then query, then body. `at`: where the body sits
 * inside the request's body (a batch item: ['items', 3]), so a 400's details name the right field.
 */
export function readInput<D>(endpoint: Endpoint<D>, raw: RawInput, at: readonly (string | number)[] = []): AnyInput {
  const params = endpoint.pathParams ? parseWith(endpoint.pathParams, raw.params, 'path') : undefined;
  const query = endpoint.query ? parseQuery(endpoint.query, raw.query ?? {}) : undefined;
  const body = endpoint.body ? parseWith(endpoint.body, raw.body, 'body', at) : undefined;
  return { params, query, body, acceptLanguage: raw.acceptLanguage } as AnyInput;
}

/** Whether the request asks for a result list as GeoJSON (`format=geojson` where the endpoint offers it). */
export function asksGeojson<D>(endpoint: Endpoint<D>, input: AnyInput): boolean {
  return (
    endpoint.ok.geojsonFormat !== undefined && (input.query as { format?: string } | undefined)?.format === 'geojson'
  );
}

/** The handler's result shaped into the answer's body; nothing found is the declaration's 404 `no_match`. */
export async function answerOf<D>(endpoint: Endpoint<D>, input: AnyInput, services: D): Promise<unknown> {
  if (!endpoint.handle) throw new Error(`${endpoint.method} ${endpoint.path} declares no handler`);
  const result = await endpoint.handle(input, services);
  if (result === undefined && endpoint.noMatch) throw new ApiError(404, 'no_match', endpoint.noMatch);
  const body = endpoint.record ? endpoint.record(result) : result;
  // The GeoJSON form is made from the JSON body itself: the same records, so the formats cannot disagree.
  return asksGeojson(endpoint, input) ? endpoint.ok.geojsonFormat!.shape(body as never) : body;
}
