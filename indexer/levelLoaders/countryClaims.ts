/**
 * Which source of an area level covers which country (pure): the first source listed that gives the level an area in
 * a country has it; a later source's areas of that level in that country are skipped. So a manifest listing the
 * registers' municipalities of the Netherlands first and an OpenStreetMap extract of the Netherlands and its
 * neighbours after keeps the registers' for the Netherlands and OpenStreetMap's for the rest; listed the other way
 * round, OpenStreetMap's win. Countries are told by their country code (`countries`), the others by the country
 * their parents put them in (an area in no country is never skipped). Only an OpenStreetMap source yields or makes
 * others yield: two register files of one level and country (one per province, say) are both loaded, as always.
 */
import type { AreaLevelName } from '../base/levels.js';
import type { AreaRecord } from '../records/records.js';

export class CountryClaims {
  private readonly owner = new Map<string, number>();

  /** `yields[i]`: whether the level's source `i` is one that yields to, or wins over, the others (osm-pbf). */
  constructor(private readonly yields: readonly boolean[]) {}

  /** Whether the area (of the source at `sourceIndex` in its level's list) is kept. */
  claim(level: AreaLevelName, record: AreaRecord, sourceIndex: number): boolean {
    const country = level === 'countries' ? record.countryCode : record.parents.country_id;
    if (!country) return true;
    const owner = this.owner.get(country);
    if (owner === undefined) {
      this.owner.set(country, sourceIndex);
      return true;
    }
    return owner === sourceIndex || !(this.yields[owner] || this.yields[sourceIndex]);
  }
}
