/**
 * What a run reports: counts per level and source file, and the checks on them that decide whether a
 * generation may go live.
 */
import type { IndexKind } from '../../core/elasticsearch/documents.js';
import { LEVELS, type LevelName, type ParentLevelName } from '../base/levels.js';
import type { GeometryRepairs } from '../geometry/repair.js';
import type { RejectReason } from '../base/rejectReasons.js';
import type { StatusCounts } from '../sources/types.js';

export interface SourceSummary {
  file: string;
  /** Records, except that an unreadable or multi-line record counts once per physical line it covers. */
  read: number;
  skipped: number;
  rejected: number;
  /** Addresses whose street joined the source's street-names table (`streetNames` in the manifest). */
  streetNamesJoined?: number;
  /** Physical lines of the file (CSV, GeoJSONSeq), header included. */
  lines?: number;
  /** The text encoding it was read in. */
  encoding?: string;
  /** Lines beyond the first of records rejected for spanning several lines (a quote never closed, say). */
  swallowedLines?: number;
  /** Formats that filter by status (BAG, BeST): records per status, kept and skipped. */
  statuses?: StatusCounts;
}

export interface LevelSummary {
  /** Records that passed the source filters (filtered-out ones are `skipped`). */
  read: number;
  skipped: number;
  /** Accepted and stored: read = indexed + rejected. */
  indexed: number;
  /** Indexed records that landed on an id another record already had (same key / same address). */
  merged: number;
  rejected: number;
  rejectReasons: Partial<Record<RejectReason, number>>;
  /** Per parent level: records that found no parent of that level (only levels the dataset has). */
  unassigned: Partial<Record<ParentLevelName, number>>;
  /** Documents of this level in the new index after refresh: indexed − merged. */
  count: number;
  /** Indexed records whose geometry needed a repair (indexer/geometry/repair.ts), per kind of repair. */
  geometryRepairs: GeometryRepairCounts;
  sources: SourceSummary[];
}

export interface GeometryRepairCounts {
  repaired: number;
  antimeridianSplit: number;
  rewound: number;
}

export function countRepairs(s: LevelSummary, repairs: GeometryRepairs | undefined): void {
  if (!repairs) return;
  if (repairs.repaired) s.geometryRepairs.repaired++;
  if (repairs.antimeridianSplit) s.geometryRepairs.antimeridianSplit++;
  if (repairs.rewound) s.geometryRepairs.rewound++;
}

export interface RunSummary {
  ok: boolean;
  generation: string;
  prefix: string;
  manifest: string;
  indexes: Record<IndexKind, string>;
  aliasesSwapped: boolean;
  previousGeneration: string | null;
  /** Complete generations deleted after the swap (beyond --keep, or rolled away from). */
  pruned: string[];
  /** Incomplete generations deleted (left by killed runs, or written before a kind existed). */
  orphansRemoved: string[];
  levels: Record<LevelName, LevelSummary>;
  /** The streets index (built from the addresses, not a dataset level). */
  streets: StreetsSummary;
  /** The places index (built from the areas, streets and addresses). */
  places: PlacesSummary;
  rejects: { path: string | null; count: number; byReason: Partial<Record<RejectReason, number>> };
  problems: string[];
  durationMs: number;
  addressesPerSecond: number;
  peakRssMb: number;
}

export function emptyLevel(): LevelSummary {
  return {
    read: 0,
    skipped: 0,
    indexed: 0,
    merged: 0,
    rejected: 0,
    rejectReasons: {},
    unassigned: {},
    count: 0,
    geometryRepairs: { repaired: 0, antimeridianSplit: 0, rewound: 0 },
    sources: [],
  };
}

export function emptyLevels(): Record<LevelName, LevelSummary> {
  return Object.fromEntries(LEVELS.map((l) => [l, emptyLevel()])) as Record<LevelName, LevelSummary>;
}

/** The streets index: built from the accepted addresses, so every count is derived and must reconcile. */
export interface StreetsSummary {
  /** Street+city records accumulated from the addresses (one document each). */
  built: number;
  /** Written without error (Elasticsearch refusing one is a bug, not a reject: the run fails). */
  indexed: number;
  /** Documents in the new index after refresh: = built. */
  count: number;
  /** Addresses counted into a street while loading: = addresses sent to Elasticsearch. */
  addresses: number;
  /** Sum of `address_count` over the new index: = addresses. */
  addressCountSum: number;
  /** OpenStreetMap's named streets (osmFeatures.ts), when an address source is an osm-pbf file. */
  osm?: OsmStreetCounts;
}

/** What became of an osm-pbf address source's named highway ways: read = joined + alone + merged + skipped. */
export interface OsmStreetCounts {
  /** Ways read (osmium counts the same: named ways of the street classes). */
  ways: number;
  /** Ways that joined a street of the addresses (same name in the same city or municipality). */
  joined: number;
  /** Ways that made a street of their own (no address on it). */
  alone: number;
  /** Further ways of such a street (one street per name and locality). */
  merged: number;
  /** Ways in no municipality or city of the hierarchy, or in a country another address source won. */
  skipped: number;
}

export function emptyStreets(): StreetsSummary {
  return { built: 0, indexed: 0, count: 0, addresses: 0, addressCountSum: 0 };
}

/** The places index: derived data, so every document built must be there. */
export interface PlacesSummary {
  built: number;
  indexed: number;
  /** Documents in the new index after refresh: = built. */
  count: number;
  /** Built per type (street, postcode, city, …). */
  byType: Record<string, number>;
  /** OpenStreetMap's place nodes (osmFeatures.ts): read = built + skipped. */
  osmNodes?: { read: number; built: number; skipped: number };
}

export function emptyPlaces(): PlacesSummary {
  return { built: 0, indexed: 0, count: 0, byType: {} };
}

/** Pure: one place document per place built, none refused; areas present mean places present. */
export function verifyPlaces(p: PlacesSummary, areasIndexed: number): string[] {
  const problems: string[] = [];
  if (p.indexed !== p.built) problems.push(`places: indexed ${p.indexed} != built ${p.built}`);
  if (p.count !== p.built) problems.push(`places: _count ${p.count} != built ${p.built}`);
  if (areasIndexed > 0 && p.built === 0) problems.push('places: none built');
  return problems;
}

/**
 * Pure: the streets index holds one document per street built, and every address sent to the addresses index
 * (indexed, merged into a duplicate or refused by Elasticsearch) is counted in exactly one of them.
 */
export function verifyStreets(s: StreetsSummary, addresses: LevelSummary): string[] {
  const problems: string[] = [];
  if (s.indexed !== s.built) problems.push(`streets: indexed ${s.indexed} != built ${s.built}`);
  if (s.count !== s.built) problems.push(`streets: _count ${s.count} != built ${s.built}`);
  if (s.addressCountSum !== s.addresses) {
    problems.push(`streets: sum of address_count ${s.addressCountSum} != addresses counted ${s.addresses}`);
  }
  const sent = addresses.indexed + (addresses.rejectReasons.elasticsearch_error ?? 0);
  if (s.addresses !== sent) {
    problems.push(`streets: addresses counted ${s.addresses} != addresses sent ${sent}`);
  }
  if (addresses.indexed > 0 && s.built === 0) problems.push('streets: none built from the addresses');
  return problems;
}

/** Pure: the checks that decide whether a generation may go live. */
export function verifyLevels(levels: Record<LevelName, LevelSummary>, maxRejectRatio: number): string[] {
  const problems: string[] = [];
  for (const level of LEVELS) {
    const s = levels[level];
    if (s.read !== s.indexed + s.rejected) {
      problems.push(`${level}: read ${s.read} != indexed ${s.indexed} + rejected ${s.rejected}`);
    }
    if (s.count !== s.indexed - s.merged) {
      problems.push(`${level}: _count ${s.count} != indexed ${s.indexed} - merged ${s.merged}`);
    }
    if (s.merged < 0) problems.push(`${level}: negative merge count ${s.merged}`);
    const ratio = s.read > 0 ? s.rejected / s.read : 0;
    if (ratio > maxRejectRatio) {
      problems.push(
        `${level}: ${s.rejected} of ${s.read} records rejected (${(ratio * 100).toFixed(2)}%), above the maximum ${(maxRejectRatio * 100).toFixed(2)}%`,
      );
    }
  }
  return problems;
}

/** The counts of a level worth a log line (without its per-source detail). */
export function compactLevel(s: LevelSummary) {
  return {
    read: s.read,
    indexed: s.indexed,
    merged: s.merged,
    rejected: s.rejected,
    unassigned: s.unassigned,
    geometryRepairs: s.geometryRepairs,
  };
}
