/**
 * An experiment, not a service: the `Searcher` the API's repositories use, over one undici keep-alive pool straight
 * to one node, without `@elastic/elasticsearch` (no transport, serializer, guard, deadline, retries or failover).
 * `npm run bench:cost -- --lean` runs the forward handler on bare `node:http` with it as well as with the API's
 * client, to show what the client costs and what the handler costs with neither Koa nor the client.
 */
import type { estypes } from '@elastic/elasticsearch';
import { Pool } from 'undici';
import type { Searcher } from '../../src/elasticsearch/searchBatcher.js';

export class UndiciSearcher implements Searcher {
  private readonly pool: Pool;

  constructor(url: string) {
    this.pool = new Pool(url, { connections: 64, pipelining: 1 });
  }

  async search<T>(index: string, body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    const answer = await this.pool.request({
      method: 'POST',
      path: `/${encodeURIComponent(index)}/_search`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await answer.body.text();
    if (answer.statusCode !== 200)
      throw new Error(`Elasticsearch answered ${answer.statusCode}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as estypes.SearchResponse<T>;
  }
}
