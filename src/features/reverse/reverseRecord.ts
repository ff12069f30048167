/** The records of GET /reverse, built from documents by the response schema's field lists. */
import { type AddressDoc, PARENT_LEVELS } from '../../../core/elasticsearch/documents.js';
import { streetId } from '../../../core/elasticsearch/stableIds.js';
import type { ReverseAnswer } from './reverseRepository.js';
import { AreaRef, ReverseAddress, type ReverseResponse } from '../../schemas/responses.js';
import { picker } from '../../schemas/pick.js';
import type { z } from 'zod';

const reverseAddress = picker<typeof ReverseAddress, Pick<AddressDoc, 'location' | 'street_key' | 'city_key'>>(
  ReverseAddress,
  {
    longitude: (doc) => doc.location.lon,
    latitude: (doc) => doc.location.lat,
    // The streets index keys a street by its addresses' street and city keys: the same id, without reading it.
    street_id: (doc) => streetId(doc.street_key, doc.city_key),
  },
);
const areaRef = picker<typeof AreaRef, z.infer<typeof AreaRef>>(AreaRef);

export function reverseRecord(answer: ReverseAnswer): z.infer<typeof ReverseResponse> {
  const areas = Object.fromEntries(
    PARENT_LEVELS.map((level) => {
      const area = answer.areas[level];
      return [level, area ? areaRef(area) : null];
    }),
  ) as z.infer<typeof ReverseResponse>['areas'];
  return { addresses: answer.addresses.map(reverseAddress), areas };
}
