/**
 * Places for the search box and autocomplete: the place query's rounds run through the batcher, hits become typed
 * results. The rounds are separate calls so a caller decides when the costly typo round is worth sending:
 * `search` sends it only when exact and prefix names find nothing (a correctly typed name costs one cheap search);
 * the search box also waits for its address answer first (searchBox.ts).
 */
import { aliasName } from '../../../core/elasticsearch/indexNames.js';
import type { Searcher } from '../../elasticsearch/searchBatcher.js';
import { type PlaceResult, placeResult } from './placeRecords.js';
import {
  matchOfScore,
  type PlaceHit,
  type PlaceQuery,
  type PlaceReading,
  placeSearchRequest,
  readPlaceQuery,
} from './placeQueries.js';

export class PlaceRepository {
  private readonly index: string;

  constructor(
    private readonly searcher: Searcher,
    indexPrefix: string,
  ) {
    this.index = aliasName(indexPrefix, 'places');
  }

  /** `typos: false` (type-ahead) never sends the second round: a keystroke that names no area costs nothing more. */
  async search(q: PlaceQuery, options: { typos?: boolean } = {}): Promise<PlaceResult[]> {
    const readings = readPlaceQuery(q.text);
    const named = await this.round(q, readings, false);
    return named.length || options.typos === false ? named : this.round(q, readings, true);
  }

  /**
   * One round for the readings: exact and prefix names (`typos: false`, one cheap search), or the typo round
   * (fuzzy names, in the batcher's fuzzy lane). [] without a search when the round has nothing to ask.
   */
  async round(q: PlaceQuery, readings: readonly PlaceReading[], typos: boolean): Promise<PlaceResult[]> {
    const body = placeSearchRequest(q, readings, typos);
    if (!body) return [];
    const res = await this.searcher.search<PlaceHit>(this.index, body, typos ? 'fuzzy' : 'exact');
    return res.hits.hits
      .filter((h) => h._source)
      .map((h) => placeResult(h._source as PlaceHit, matchOfScore(h._score ?? 0)));
  }
}
