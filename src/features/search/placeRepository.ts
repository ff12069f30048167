/**
 * Places for the search box (phase 2 wires it to GET /search and /autocomplete): the place query's rounds run
 * through the batcher, hits become typed results. The typo round is sent only when exact and prefix names find
 * nothing, so a correctly typed name costs one cheap search.
 */
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import type { Searcher } from '../../elasticsearch/searchBatcher.js';
import { type PlaceResult, placeResult } from './placeRecords.js';
import { matchOfScore, type PlaceHit, type PlaceQuery, placeSearchRequest, readPlaceQuery } from './placeQueries.js';

export class PlaceRepository {
  private readonly index: string;

  constructor(
    private readonly searcher: Searcher,
    indexPrefix: string,
  ) {
    this.index = aliasName(indexPrefix, 'places');
  }

  async search(q: PlaceQuery): Promise<PlaceResult[]> {
    const readings = readPlaceQuery(q.text);
    for (const typos of [false, true]) {
      const body = placeSearchRequest(q, readings, typos);
      if (!body) continue;
      const res = await this.searcher.search<PlaceHit>(this.index, body, typos ? 'fuzzy' : 'exact');
      const hits = res.hits.hits.filter((h) => h._source);
      if (hits.length) return hits.map((h) => placeResult(h._source as PlaceHit, matchOfScore(h._score ?? 0)));
    }
    return [];
  }
}
