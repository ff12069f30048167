/** Free-text search and batch geocoding: the forward tiers behind other ways of asking. */
import type Router from '@koa/router';
import { InvalidQueryError } from '../domain/errors.js';
import { ApiError, errorBody, invalidRequest, toApiError, unreadableField } from '../http/errors.js';
import { parseQuery, parseWith } from '../http/validate.js';
import { forwardRecord } from '../records/addressRecords.js';
import { BatchBody, SearchQueryParams, StreetQueryBody } from '../schemas/requests.js';
import { parseStreetQuery } from '../search/streetQuery.js';
import type { RouteDeps } from './context.js';

/**
 * Items of one batch in flight at once. The batcher turns them into `_msearch` requests of ES_BATCH_MAX
 * searches; a bound keeps one 1,000-item batch from queueing a thousand searches in front of every other
 * client's (Elasticsearch's search queue is 1,000 tasks deep).
 */
const BATCH_CONCURRENCY = 64;

/** Like Promise.all over `items`, at most `limit` at once; after one fails, no further item is started. */
async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    for (let i = next++; i < items.length && !failed; i = next++) {
      try {
        out[i] = await fn(items[i] as T, i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const noMatch = () => new ApiError(404, 'no_match', 'No address matches the street name and number');

export function registerGeocodingRoutes(router: Router, { addresses, freeText }: RouteDeps): void {
  router.get('/search', async (ctx) => {
    const params = parseQuery(SearchQueryParams, ctx.query);
    const answers = await freeText.search({
      q: params.q,
      size: params.size,
      focus: params.lat !== undefined && params.lon !== undefined ? { lat: params.lat, lon: params.lon } : undefined,
      country: params.country,
    });
    ctx.body = answers.map(forwardRecord);
  });

  router.post('/geocode/batch', async (ctx) => {
    const { items } = parseWith(BatchBody, ctx.request.body, 'body');
    // An item the backend could not answer fails the whole batch (503): the client retries it whole, rather
    // than sorting answered from unanswered items; the items not yet started are not searched for nothing.
    const results = await mapConcurrent(items, BATCH_CONCURRENCY, async (item, i) => {
      try {
        const body = StreetQueryBody.safeParse(item);
        if (!body.success) throw invalidRequest(body.error, 'body', ['items', i]);
        const answer = await addresses.forward(parseStreetQuery(body.data));
        if (!answer) throw noMatch();
        return { status: 200, result: forwardRecord(answer) };
      } catch (error) {
        const apiError = error instanceof InvalidQueryError ? unreadableField(error, ['items', i]) : toApiError(error);
        if (apiError.status >= 500) throw error;
        return { status: apiError.status, ...errorBody(apiError) };
      }
    });
    ctx.body = { results };
  });
}
