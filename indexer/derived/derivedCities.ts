/**
 * Cities made from the addresses' city names where no city polygons exist (bulk.json). An address gets
 * its city_id in the single streaming pass, from (name, the municipality the address falls in): a
 * group. When the stream ends, the groups of one name that lie together become one city, owned by the
 * municipality holding most of its addresses; the ids of the groups folded into it are returned as a
 * remap so the loader can move those addresses over (the simplified municipality polygons put
 * addresses near a border in the neighbour, or in none).
 *
 * Memory grows with the number of groups, not addresses: each keeps a count, a sum and at most
 * a bounded set of grid-thinned points (geometry/pointOutline.ts) for its concave-hull outline.
 */
import type { BoundingBox, GeoPoint, ParentIds } from '../../core/elasticsearch/documents.js';
import { bboxOf, bboxPolygon } from '../geometry/checks.js';
import { outlineOf, ThinnedPoints } from '../geometry/pointOutline.js';
import { type NormalisedGeometry, normaliseGeometry } from '../geometry/repair.js';
import { representativePoint } from '../geometry/representativePoint.js';
import type { Hierarchy } from '../records/hierarchy.js';
import { derivedCityKey, sourceKey, stableId } from '../records/ids.js';
import type { Names } from '../records/names.js';
import type { AreaRecord, Parents } from '../records/records.js';
import { normaliseText } from '../base/text.js';

/** Groups of one name closer than this (in degrees, about 3-5 km) are one place split by a border. */
const SAME_PLACE_DEGREES = 0.05;

interface Group {
  id: string;
  key: string;
  nameKey: string;
  name: string;
  parents: ParentIds;
  parentId: string;
  count: number;
  bbox: BoundingBox;
  points: ThinnedPoints;
}

/** What the addresses of a folded group must now say. */
export type CityRemap = Map<string, ParentIds>;

export interface DerivedCityResult {
  records: AreaRecord[];
  remap: CityRemap;
}

function near(a: BoundingBox, b: BoundingBox): boolean {
  return (
    a.min_lon - SAME_PLACE_DEGREES <= b.max_lon &&
    b.min_lon - SAME_PLACE_DEGREES <= a.max_lon &&
    a.min_lat - SAME_PLACE_DEGREES <= b.max_lat &&
    b.min_lat - SAME_PLACE_DEGREES <= a.max_lat
  );
}

function padded(b: BoundingBox): BoundingBox {
  const d = 0.001;
  return { min_lon: b.min_lon - d, min_lat: b.min_lat - d, max_lon: b.max_lon + d, max_lat: b.max_lat + d };
}

function widen(into: BoundingBox, b: BoundingBox): void {
  into.min_lon = Math.min(into.min_lon, b.min_lon);
  into.min_lat = Math.min(into.min_lat, b.min_lat);
  into.max_lon = Math.max(into.max_lon, b.max_lon);
  into.max_lat = Math.max(into.max_lat, b.max_lat);
}

/**
 * Pure: the groups of one name clustered into places. Largest groups first, so each place's first
 * group with a municipality is the one holding most of its addresses: that group's id and parents
 * become the city's.
 */
export function clusterGroups<G extends { count: number; bbox: BoundingBox; parents: ParentIds }>(
  groups: G[],
): { owner: G; members: G[] }[] {
  const sorted = [...groups].sort((a, b) => b.count - a.count);
  const places: { owner: G; members: G[]; bbox: BoundingBox }[] = [];
  for (const g of sorted) {
    const place = places.find((p) => near(p.bbox, g.bbox));
    if (!place) {
      places.push({ owner: g, members: [g], bbox: { ...g.bbox } });
      continue;
    }
    place.members.push(g);
    widen(place.bbox, g.bbox);
    if (!place.owner.parents.municipality_id && g.parents.municipality_id) place.owner = g;
  }
  return places.map(({ owner, members }) => ({ owner, members }));
}

/**
 * A derived city named like its municipality in any language (Brussels' "Elsene" under Elsene/Ixelles) is that
 * municipality's town, so it takes the municipality's names: "Ixelles" then finds and labels the city too. A
 * city of another name (a village inside a municipality) keeps its one name.
 */
export function namesFromMunicipality(cityNameKey: string, names: Names | undefined): Names | undefined {
  if (!names) return undefined;
  return Object.values(names).some((name) => normaliseText(name) === cityNameKey) ? { ...names } : undefined;
}

/**
 * A dear derivation kept for the next run (indexer/rows/derivationMemo.ts): `derive()`'s result for `input`, taken
 * over where the previous run derived it from the same input. Without one, derive() is called.
 */
export type Memoize = <T>(kind: string, input: unknown, derive: () => T) => T;

const noMemo: Memoize = (_kind, _input, derive) => derive();

export class DerivedCities {
  private readonly groups = new Map<string, Group>();
  /** The groups by id, made once the stream has ended (ownParents). */
  private byId: Map<string, Group> | undefined;
  /** City name as written -> parent id -> its group: the per-address look-up builds no string. */
  private readonly byNameAndParent = new Map<string, Map<string, Group | null>>();

  constructor(
    private readonly hierarchy: Hierarchy,
    private readonly memoize: Memoize = noMemo,
  ) {}

  /** Sets parents.city_id when it is still empty and the address names a city; false when it cannot. */
  assign(cityName: string, location: GeoPoint, parents: Parents): boolean {
    if (parents.city_id) return true;
    const parentId = parents.municipality_id || parents.province_id || parents.country_id;
    let inName = this.byNameAndParent.get(cityName);
    if (!inName) {
      inName = new Map();
      this.byNameAndParent.set(cityName, inName);
    }
    let group = inName.get(parentId);
    if (group === undefined) {
      group = this.groupOf(cityName, parents, parentId);
      inName.set(parentId, group);
    }
    if (!group) return false;
    group.count++;
    const b = group.bbox;
    const { lon, lat } = location;
    if (lon < b.min_lon) b.min_lon = lon;
    if (lat < b.min_lat) b.min_lat = lat;
    if (lon > b.max_lon) b.max_lon = lon;
    if (lat > b.max_lat) b.max_lat = lat;
    group.points.add(lon, lat);
    parents.city_id = group.id;
    return true;
  }

  /** The group of a city name under a parent (made on first sight), or null when the name is empty once normalised. */
  private groupOf(cityName: string, parents: Parents, parentId: string): Group | null {
    const nameKey = normaliseText(cityName);
    if (!nameKey) return null;
    const parentKey = parentId ? (this.hierarchy.area(parentId)?.sourceKey ?? '') : '';
    const key = derivedCityKey(nameKey, parentKey);
    let group = this.groups.get(key);
    if (!group) {
      group = {
        id: stableId('cities', key),
        key,
        nameKey,
        name: cityName,
        parents: {
          country_id: parents.country_id,
          province_id: parents.province_id,
          municipality_id: parents.municipality_id,
          city_id: '',
        },
        parentId,
        count: 0,
        bbox: { min_lon: Infinity, min_lat: Infinity, max_lon: -Infinity, max_lat: -Infinity },
        points: new ThinnedPoints(),
      };
      this.groups.set(key, group);
    }
    return group;
  }

  /** What the addresses of a group carry where it is not folded: its own parents and id (undefined: no such group). */
  ownParents(id: string): ParentIds | undefined {
    this.byId ??= new Map([...this.groups.values()].map((g) => [g.id, g]));
    const group = this.byId.get(id);
    return group && { ...group.parents, city_id: group.id };
  }

  /** Groups seen so far (before they are folded into cities). */
  get size(): number {
    return this.groups.size;
  }

  finish(): DerivedCityResult {
    const byName = new Map<string, Group[]>();
    for (const g of this.groups.values()) {
      const list = byName.get(g.nameKey);
      if (list) list.push(g);
      else byName.set(g.nameKey, [g]);
    }
    const records: AreaRecord[] = [];
    const remap: CityRemap = new Map();
    for (const groups of byName.values()) {
      for (const { owner, members } of clusterGroups(groups)) {
        const points = new ThinnedPoints();
        for (const m of members) {
          for (const [lon, lat] of m.points.points()) points.add(lon, lat);
          if (m !== owner) remap.set(m.id, { ...owner.parents, city_id: owner.id });
        }
        const record = this.record(owner, points);
        if (record) records.push(record);
      }
    }
    return { records, remap };
  }

  private record(owner: Group, points: ThinnedPoints): AreaRecord | undefined {
    // The outline of the points, repaired, and the point inside it: the dear part, kept for the next run (the same
    // thinned points give the same outline).
    const outlined = this.memoize('derived-city-outline', [points.cellDegrees, points.points()], () => {
      const outline = outlineOf(points);
      const repaired = outline ? normaliseGeometry(outline) : undefined;
      return repaired?.ok ? { repaired, centroid: representativePoint(repaired.geometry) } : null;
    });
    // Addresses already point at this id, so the city must exist: the box is the last resort.
    const fixed: NormalisedGeometry = outlined?.repaired ?? normaliseGeometry(bboxPolygon(padded(owner.bbox)));
    if (!fixed.ok) return undefined;
    const country = owner.parents.country_id ? this.hierarchy.area(owner.parents.country_id) : undefined;
    const municipality = owner.parents.municipality_id ? this.hierarchy.area(owner.parents.municipality_id) : undefined;
    const names = namesFromMunicipality(owner.nameKey, municipality?.names);
    return {
      level: 'cities',
      key: owner.key,
      id: owner.id,
      sourceKey: sourceKey('cities', owner.key),
      name: owner.name,
      ...(names && { names }),
      localIdentifier: '',
      countryCode: country?.countryCode ?? '',
      countryCode3: country?.countryCode3 ?? '',
      geometry: fixed.geometry,
      bbox: bboxOf(fixed.geometry),
      centroid: outlined?.centroid ?? representativePoint(fixed.geometry),
      parents: owner.parents,
      parentId: owner.parentId,
      repairs: fixed.repairs,
    };
  }
}
