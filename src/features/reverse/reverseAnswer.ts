/**
 * The one reverse: the nearest addresses and the containing areas of a point, in the answer's language, as the
 * GET /reverse record. The native endpoint and the compatibility dialects (src/features/dialects/) all answer
 * through it.
 */
import type { z } from 'zod';
import { answerLanguage, type LanguageChoice } from '../../language/answerLanguage.js';
import type { ReverseResponse } from '../../schemas/responses.js';
import type { CityNameRepository } from '../cities/cityNames.js';
import { reverseInLanguage } from './reverseLanguage.js';
import { reverseRecord } from './reverseRecord.js';
import type { ReverseRepository } from './reverseRepository.js';

export interface ReverseRequest {
  lat: number;
  lon: number;
  /** Metres around the point in which addresses are looked for. */
  radius: number;
  /** Most addresses, nearest first. */
  size: number;
  language: LanguageChoice;
}

export async function answerReverse(
  { reverse, cityNames }: { reverse: ReverseRepository; cityNames: CityNameRepository },
  { lat, lon, radius, size, language }: ReverseRequest,
): Promise<z.infer<typeof ReverseResponse>> {
  // The city names are cached per index generation: read alongside the point's searches, not after them.
  const [answer, cities] = await Promise.all([reverse.reverse({ lat, lon }, radius, size), cityNames.known()]);
  return reverseRecord(reverseInLanguage(answer, answerLanguage(language), cities.names));
}
