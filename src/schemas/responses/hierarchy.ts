/** The hierarchy's list records: countries, provinces, municipalities, cities. */
import { z } from 'zod';
import { AreaNames } from './fields.js';

/** A list record of the hierarchy: id, the id of its parent (by the parent's field name), name, official code. */
function areaRecord<F extends string>(parentField: F) {
  return z.object({
    id: z.string(),
    ...({ [parentField]: z.string() } as Record<F, z.ZodString>),
    name: z.string(),
    local_identifier: z.string(),
    names: AreaNames,
  });
}

export const Country = z.object({
  id: z.string(),
  name: z.string(),
  country_code: z.string(),
  country_code3: z.string(),
  local_identifier: z.string(),
  names: AreaNames,
});
export const CountryList = z.array(Country);
export const Province = areaRecord('country_id');
export const ProvinceList = z.array(Province);
export const Municipality = areaRecord('province_id');
export const MunicipalityList = z.array(Municipality);
export const City = areaRecord('municipality_id');
export const CityList = z.array(City);
