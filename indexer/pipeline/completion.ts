/**
 * What every run does once its indexes are written, whether a full run or `update`: read back the counts, check
 * them against what was loaded, and mark the generation complete (a rollback target). One place, so both make the
 * same checks.
 */
import { INDEX_KINDS, type ParentIds } from '../../core/elasticsearch/documents.js';
import { countDocuments } from './countDocuments.js';
import { markComplete } from '../generations/generationIndexes.js';
import { attributionOf } from '../manifest/attribution.js';
import { AREA_LEVELS, LEVELS } from '../base/levels.js';
import type { RunContext } from '../execution/runContext.js';
import { compactLevel, verifyLevels, verifyPlaces, verifyStreets } from '../execution/summary.js';

/** Counts the new indexes and returns what does not add up (empty: verified). */
export async function verifyGeneration(run: RunContext, maxRejectRatio: number): Promise<string[]> {
  await countDocuments(run);
  run.log.info(
    {
      levels: Object.fromEntries(
        LEVELS.map((l) => [l, { ...compactLevel(run.levels[l]), count: run.levels[l].count }]),
      ),
      streets: run.streets,
      places: run.places,
    },
    'documents counted',
  );
  const areasIndexed = AREA_LEVELS.reduce((n, l) => n + run.levels[l].indexed, 0);
  return [
    ...verifyLevels(run.levels, maxRejectRatio),
    ...verifyStreets(run.streets, run.levels.addresses),
    ...verifyPlaces(run.places, areasIndexed),
  ];
}

/** What `update` needs of the live generation, kept with it (indexer/update/). */
export interface UpdateBasis {
  /**
   * The derived-city groups folded into another city: their addresses in this generation carry the other city's
   * parents, not their own group's, so an update rewrites them (its folds may differ).
   */
  folded_cities: string[];
  /**
   * Per folded group, the parents its addresses carry (the city it was folded into): an update keeps the addresses of
   * a group it folds alike as they are. Absent in generations made before it was kept: every such address is moved.
   */
  folded_into?: Record<string, ParentIds>;
  /** How many updates led to this generation since its full run: the versions an update sends are offset by it. */
  update_serial: number;
}

/** What an update of a generation starts from: its folds (`remap`, derivedCities.ts) and how many updates led to it. */
export function updateBasisOf(remap: ReadonlyMap<string, ParentIds>, updateSerial: number): UpdateBasis {
  const folded = [...remap.keys()].sort();
  return {
    folded_cities: folded,
    folded_into: Object.fromEntries(folded.map((group) => [group, remap.get(group) as ParentIds])),
    update_serial: updateSerial,
  };
}

export async function markGenerationComplete(run: RunContext, manifest: string, basis: UpdateBasis): Promise<void> {
  const completedAt = new Date().toISOString();
  // Whom the data is from, kept with the generation: the service reads it once per generation.
  const attribution = attributionOf(run.manifest);
  for (const kind of INDEX_KINDS) {
    const documents =
      kind === 'areas'
        ? AREA_LEVELS.reduce((n, l) => n + run.levels[l].count, 0)
        : kind === 'streets'
          ? run.streets.count
          : kind === 'places'
            ? run.places.count
            : run.levels[kind === 'buildings' ? 'buildings' : 'addresses'].count;
    await markComplete(run.setup.client, run.index(kind), kind, {
      generation: run.setup.generation,
      completedAt,
      manifest,
      documents,
      basis,
      attribution,
    });
  }
}
