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
    return this.claimCountry(level === 'countries' ? record.countryCode : record.parents.country_id, sourceIndex);
  }

  /** Whether a record of the source in the country (a code or a country id; "": none) is kept; the first claims it. */
  claimCountry(country: string, sourceIndex: number): boolean {
    if (!country) return true;
    const owner = this.owner.get(country);
    if (owner === undefined) {
      this.owner.set(country, sourceIndex);
      return true;
    }
    return owner === sourceIndex || !(this.yields[owner] || this.yields[sourceIndex]);
  }

  /** As claimCountry, without claiming a country no source has yet (what a source gives besides its records). */
  keeps(country: string, sourceIndex: number): boolean {
    const owner = country ? this.owner.get(country) : undefined;
    return owner === undefined || owner === sourceIndex || !(this.yields[owner] || this.yields[sourceIndex]);
  }
}
