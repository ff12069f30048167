/**
 * The one search every dialect door runs: its request (already translated from its parameters) through the search
 * box, the results as the dialects' places (place.ts), and the one localisation pass of a dialect answer: each
 * place's own name in the answer's language (`lang`, else Accept-Language; a dialect's clients read one name).
 * A door then only formats the places (its format module). Pure but for the search.
 */
import { answerLanguage, type LanguageChoice } from '../../language/answerLanguage.js';
import type { SearchBox, SearchBoxRequest } from '../search/searchBox.js';
import { type DialectPlace, inLanguage, searchPlace } from './place.js';

/** The places shown in the answer's language: chosen once for the answer, applied to each. */
export function placesInLanguage(places: readonly DialectPlace[], choice: LanguageChoice | undefined): DialectPlace[] {
  const language = choice ? answerLanguage(choice) : undefined;
  return places.map((p) => inLanguage(p, language));
}

/** The search box's answer to a dialect's request (`empty`: a request that can find nothing), localised. */
export async function dialectSearch(
  searchBox: SearchBox,
  request: SearchBoxRequest | 'empty',
): Promise<DialectPlace[]> {
  if (request === 'empty') return [];
  const results = await searchBox.search(request);
  return placesInLanguage(results.map(searchPlace), request.language ?? {});
}
