/** The records of GET /reverse, built from documents by the response schema's field lists. */
import type { AddressDoc } from '../../../core/elasticsearch/documents.js';
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
  const { country, province, municipality, city, suburb, building } = answer.areas;
  const ref = (a: z.infer<typeof AreaRef> | null) => (a ? areaRef(a) : null);
  return {
    addresses: answer.addresses.map(reverseAddress),
    areas: {
      country: ref(country),
      province: ref(province),
      municipality: ref(municipality),
      city: ref(city),
      suburb: ref(suburb),
      building: ref(building),
    },
  };
}
