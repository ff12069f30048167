/** The records of GET /reverse, built from documents by the response schema's field lists. */
import { type AddressDoc, PARENT_LEVELS } from '../../../core/elasticsearch/documents.js';
import type { ReverseAnswer } from './reverseRepository.js';
import { AreaRef, ReverseAddress, type ReverseResponse } from '../../schemas/responses.js';
import { picker } from '../../schemas/pick.js';
import type { z } from 'zod';

const reverseAddress = picker<typeof ReverseAddress, Pick<AddressDoc, 'location'>>(ReverseAddress, {
  longitude: (doc) => doc.location.lon,
  latitude: (doc) => doc.location.lat,
});
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
