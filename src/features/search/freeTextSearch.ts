/**
 * GET /search: free text read into structured readings (freeText.ts) against the known city names, the
 * readings run through the forward tiers tier by tier (every reading's exact search at once, which the batcher
 * carries in one `_msearch` round trip; then the fuzzy tiers only as readingsForNextTier decides), the answers
 * graded and merged.
 */
import type { Focus } from '../../geometry/focus.js';
import type { CountryCode } from '../../../core/text/postcodePatterns.js';
import { mergeReadings, readFreeText, readingsForNextTier } from './freeText.js';
import { readTypedText, type TypedText } from './typedText.js';
import { gradeReading } from '../address/matchQuality.js';
import { parseStreetQuery } from '../address/streetRequest.js';
import { addressLocaliser } from '../address/addressLanguage.js';
import type { LanguageChoice } from '../../language/answerLanguage.js';
import {
  type AddressRepository,
  FORWARD_TIERS,
  type ForwardAnswer,
  type ForwardTier,
} from '../address/addressRepository.js';
import type { AreaRepository } from '../hierarchy/areaRepository.js';
import type { CityNameRepository } from '../cities/cityNames.js';

export interface FreeTextRequest {
  q: string;
  size: number;
  focus?: Focus | undefined;
  country?: CountryCode | undefined;
  /** The answer's language: `lang`, and the request's Accept-Language. */
  language?: Omit<LanguageChoice, 'matched'>;
  /** The forward tiers to run (all by default); the type-ahead runs the exact one only (a typo is its own round). */
  tiers?: readonly ForwardTier[];
}

export class FreeTextSearch {
  constructor(
    private readonly addresses: AddressRepository,
    private readonly areas: AreaRepository,
    private readonly cityNames: CityNameRepository,
  ) {}

  /**
   * The text as the place reader reads it (typedText.ts): a country and a no-number mark taken out; brackets kept,
   * since place names hold them (`Bergen (L.)`).
   */
  async placeText(q: string): Promise<TypedText> {
    const cities = await this.cityNames.known();
    return readTypedText(q, (words) => cities.namedExactly(words), { keepBrackets: true });
  }

  async search(request: FreeTextRequest): Promise<ForwardAnswer[]> {
    const [cities, countryId] = await Promise.all([
      this.cityNames.known(),
      request.country ? this.areas.countryIdOf(request.country) : undefined,
    ]);
    // A country the index does not hold has no addresses.
    if (request.country && !countryId) return [];
    const readings = readFreeText(request.q, {
      cities,
      ...(request.country ? { countries: [request.country] } : {}),
    });
    const queries = readings.map((reading) => ({ ...parseStreetQuery(reading.query, request.focus), countryId }));
    const answers: ForwardAnswer[][] = readings.map(() => []);
    // Tier by tier across the readings: each tier's searches of all its readings start in one turn (one `_msearch`).
    for (const tier of request.tiers ?? FORWARD_TIERS) {
      await Promise.all(
        readingsForNextTier(answers).map(async (i) => {
          const [reading, q] = [readings[i]!, queries[i]!];
          const candidates = await this.addresses.tierCandidates(tier, q, request.size);
          const inLanguage = addressLocaliser(q, request.language ?? {}, cities);
          answers[i] = candidates.map((answer) => ({
            ...answer,
            ...gradeReading(answer, reading.city),
            doc: inLanguage(answer.doc),
          }));
        }),
      );
    }
    return mergeReadings(answers, request.size);
  }
}
