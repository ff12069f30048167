/**
 * GET /search: free text read into structured readings (freeText.ts) against the known city names,
 * every reading run through the forward tiers at once (the batcher carries the readings' searches in one
 * `_msearch` round trip), the answers graded and merged.
 */
import type { Focus } from '../../geometry/focus.js';
import type { CountryCode } from '../../../core/text/postcodePatterns.js';
import { mergeReadings, readFreeText } from './freeText.js';
import { gradeReading } from '../address/matchQuality.js';
import { parseStreetQuery } from '../address/streetRequest.js';
import { addressLocaliser } from '../address/addressLanguage.js';
import type { LanguageChoice } from '../../language/answerLanguage.js';
import type { AddressRepository, ForwardAnswer } from '../address/addressRepository.js';
import type { AreaRepository } from '../hierarchy/areaRepository.js';
import type { CityNameRepository } from './cityNames.js';

export interface FreeTextRequest {
  q: string;
  size: number;
  focus?: Focus | undefined;
  country?: CountryCode | undefined;
  /** The answer's language: `lang`, and the request's Accept-Language. */
  language?: Omit<LanguageChoice, 'matched'>;
}

export class FreeTextSearch {
  constructor(
    private readonly addresses: AddressRepository,
    private readonly areas: AreaRepository,
    private readonly cityNames: CityNameRepository,
  ) {}

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
    const answers = await Promise.all(
      readings.map(async (reading) => {
        const q = {
          ...parseStreetQuery(reading.query, request.focus),
          countryId,
        };
        const candidates = await this.addresses.candidates(q, request.size);
        const inLanguage = addressLocaliser(q, request.language ?? {}, cities);
        return candidates.map((answer) => ({
          ...answer,
          ...gradeReading(answer, reading.city),
          doc: inLanguage(answer.doc),
        }));
      }),
    );
    return mergeReadings(answers, request.size);
  }
}
