/**
 * The one reverse: the nearest addresses and the containing areas of a point, in the answer's language, as a
 * domain result (ReverseResult: documents and area references, no HTTP record). The native endpoint formats it as
 * the GET /reverse record (reverseRecord.ts); the compatibility dialects (src/features/dialects/) format it as theirs.
 */
import { answerLanguage, type LanguageChoice } from '../../language/answerLanguage.js';
import type { CityNameRepository } from '../cities/cityNames.js';
import { reverseInLanguage } from './reverseLanguage.js';
import type { ReverseRepository } from './reverseRepository.js';

/**
 * What lies at a point, in the answer's language: the nearest addresses (nearest first, with `distance_m`, their
 * street and city shown in the language and `names` where several) and per level the containing area or null.
 */
export type ReverseResult = ReturnType<typeof reverseInLanguage>;

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
): Promise<ReverseResult> {
  // The city names are cached per index generation: read alongside the point's searches, not after them.
  const [answer, cities] = await Promise.all([reverse.reverse({ lat, lon }, radius, size), cityNames.known()]);
  return reverseInLanguage(answer, answerLanguage(language), cities.names);
}
