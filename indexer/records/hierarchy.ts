/**
 * Resolves each record's parents of every level (pure, in memory). A record looks for its nearest
 * parent first and inherits that parent's own chain, so a document never names a city of one
 * municipality and a different municipality; only levels the chain leaves open are looked up
 * directly (an address outside every city still gets its municipality by point-in-polygon).
 */
import type { ParentIds } from '../../core/elasticsearch/documents.js';
import {
  type AreaLevelName,
  ancestorLevels,
  isAreaLevel,
  type LevelName,
  PARENT_SLOT,
  type ParentLevelName,
} from '../base/levels.js';
import type { ParentSpec } from '../manifest/manifestSources.js';
import { type AreaRecord, type BuildingRecord, emptyAllParents, type Parents } from './records.js';
import { PolygonIndex } from './spatialIndex.js';

export interface Resolution {
  parents: Parents;
  /** Parent levels that exist in this dataset but where no parent was found. */
  unassigned: readonly ParentLevelName[];
}

type ParentField = Extract<ParentSpec, { by: 'code' }>['parentField'];

interface AreaLevelIndex {
  records: AreaRecord[];
  spatial: PolygonIndex<AreaRecord>;
  byField: Map<ParentField, Map<string, AreaRecord>>;
}

function parentFieldValue(r: AreaRecord, field: ParentField): string {
  switch (field) {
    case 'local_identifier':
      return r.localIdentifier;
    case 'country_code':
      return r.countryCode;
    case 'country_code3':
      return r.countryCode3;
    case 'source_key':
      return r.sourceKey;
    case 'name':
      return r.name;
  }
}

const NOTHING_MISSING: readonly ParentLevelName[] = Object.freeze([]);

export class Hierarchy {
  private readonly levels = new Map<AreaLevelName, AreaLevelIndex>();
  private readonly byId = new Map<string, AreaRecord>();
  private buildings: PolygonIndex<BuildingRecord> | undefined;
  /** Levels that will have records even though they are not loaded yet (derived cities). */
  private readonly pending = new Set<ParentLevelName>();

  addAreaLevel(level: AreaLevelName, records: AreaRecord[]): void {
    this.levels.set(level, { records, spatial: new PolygonIndex(records), byField: new Map() });
    for (const r of records) this.byId.set(r.id, r);
  }

  setBuildings(records: BuildingRecord[]): void {
    this.buildings = new PolygonIndex(records);
  }

  markPending(level: ParentLevelName): void {
    this.pending.add(level);
  }

  /** Whether the dataset has any parent of this level (only those count as unassigned when missing). */
  present(level: ParentLevelName): boolean {
    if (this.pending.has(level)) return true;
    if (level === 'buildings') return (this.buildings?.size ?? 0) > 0;
    return (this.levels.get(level)?.records.length ?? 0) > 0;
  }

  area(id: string): AreaRecord | undefined {
    return this.byId.get(id);
  }

  /** Every area of every level, in the order they were added (top level first). */
  areas(): Iterable<AreaRecord> {
    return this.byId.values();
  }

  findByCode(level: AreaLevelName, field: ParentField, value: string): AreaRecord | undefined {
    const index = this.levels.get(level);
    if (!index || !value) return undefined;
    let map = index.byField.get(field);
    if (!map) {
      map = new Map();
      for (const r of index.records) {
        const v = parentFieldValue(r, field);
        // First one wins: duplicates of a code would otherwise make the join depend on map order.
        if (v && !map.has(v)) map.set(v, r);
      }
      index.byField.set(field, map);
    }
    return map.get(value);
  }

  private inherit(parents: Parents, found: AreaRecord): void {
    parents[PARENT_SLOT[found.level]] = found.id;
    for (const slot of ['country_id', 'province_id', 'municipality_id', 'city_id'] as const) {
      if (!parents[slot] && found.parents[slot]) parents[slot] = found.parents[slot];
    }
  }

  /** Fill every still-open slot above `level` by point-in-polygon, nearest level first. */
  private fillSpatially(level: LevelName, lon: number, lat: number, parents: Parents): void {
    for (const ancestor of ancestorLevels(level)) {
      if (ancestor === 'addresses') continue;
      const slot = PARENT_SLOT[ancestor];
      if (parents[slot]) continue;
      if (ancestor === 'buildings') {
        const building = this.buildings?.find(lon, lat);
        if (building) parents.building_id = building.id;
        continue;
      }
      const found = this.levels.get(ancestor)?.spatial.find(lon, lat);
      if (found) this.inherit(parents, found);
    }
  }

  unassigned(levels: readonly LevelName[], parents: Parents): readonly ParentLevelName[] {
    let missing: ParentLevelName[] | undefined;
    for (const l of levels) {
      if (l === 'addresses') continue;
      if (this.present(l) && !parents[PARENT_SLOT[l]]) (missing ??= []).push(l);
    }
    // Nearly every address misses nothing: one shared empty list, not one per address.
    return missing ?? NOTHING_MISSING;
  }

  resolveSpatial(level: LevelName, lon: number, lat: number): Resolution {
    const parents = emptyAllParents();
    this.fillSpatially(level, lon, lat, parents);
    return { parents, unassigned: this.unassigned(ancestorLevels(level), parents) };
  }

  /** Like resolveSpatial, for callers that fill more slots afterwards (derived cities) and count later. */
  resolveSpatialParents(level: LevelName, lon: number, lat: number): Parents {
    const parents = emptyAllParents();
    this.fillSpatially(level, lon, lat, parents);
    return parents;
  }

  /**
   * An address joined by a code (BeST's municipality NIS code): that parent and its chain, then every slot still
   * open (city, suburb, building; the chain too when the code is not found) by point-in-polygon.
   */
  resolveByCodeThenSpatially(
    level: LevelName,
    code: { level: AreaLevelName; field: ParentField; value: string },
    lon: number,
    lat: number,
  ): Parents {
    const parents = emptyAllParents();
    const found = this.findByCode(code.level, code.field, code.value);
    if (found) this.inherit(parents, found);
    this.fillSpatially(level, lon, lat, parents);
    return parents;
  }

  /** By a code: the parent and its chain, nothing else (a code join is an explicit choice). */
  resolveByCode(parentLevel: AreaLevelName, field: ParentField, value: string): Resolution {
    const parents = emptyAllParents();
    const found = this.findByCode(parentLevel, field, value);
    if (found) this.inherit(parents, found);
    const considered = [parentLevel, ...ancestorLevels(parentLevel)];
    return { parents, unassigned: this.unassigned(considered, parents) };
  }

  /** The nearest area a record hangs under, and the country codes it inherits. */
  completeArea(record: AreaRecord, parents: Parents): AreaRecord {
    const own: ParentIds = {
      country_id: parents.country_id,
      province_id: parents.province_id,
      municipality_id: parents.municipality_id,
      city_id: parents.city_id,
    };
    let parentId = '';
    for (const ancestor of ancestorLevels(record.level)) {
      if (!isAreaLevel(ancestor)) continue;
      const id = parents[PARENT_SLOT[ancestor]];
      if (id) {
        parentId = id;
        break;
      }
    }
    const country = own.country_id ? this.byId.get(own.country_id) : undefined;
    return {
      ...record,
      parents: own,
      parentId,
      countryCode: record.countryCode || country?.countryCode || '',
      countryCode3: record.countryCode3 || country?.countryCode3 || '',
    };
  }
}
