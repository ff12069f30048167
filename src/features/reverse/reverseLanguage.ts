/**
 * A reverse answer in the answer's language (pure): a point names no language, so `lang`, else Accept-Language,
 * else the primary names; the addresses' street and city and every area's `name`, with `names` where several.
 */
import { PARENT_LEVELS } from '../../../core/elasticsearch/documents.js';
import type { Language } from '../../language/answerLanguage.js';
import { addressesInLanguage } from '../address/addressLanguage.js';
import { areaInLanguage } from '../hierarchy/areaLanguage.js';
import type { CityNames } from '../cities/knownCities.js';
import type { ReverseAnswer } from './reverseRepository.js';

export function reverseInLanguage(answer: ReverseAnswer, language: Language | undefined, cities: CityNames) {
  const areas = { ...answer.areas };
  for (const level of PARENT_LEVELS) {
    const area = areas[level];
    if (area) areas[level] = areaInLanguage(area, language);
  }
  return { addresses: answer.addresses.map(addressesInLanguage(language, cities)), areas };
}
