/**
 * The dataset levels a manifest can fill, top of the hierarchy first. Order matters: a level can
 * only be resolved against levels above it, which are always loaded first.
 */
import { type AreaLevel, PARENT_ID_FIELD } from '../../core/elasticsearch/documents.js';

export const AREA_LEVELS = ['countries', 'provinces', 'municipalities', 'cities', 'suburbs'] as const;
export const LEVELS = [...AREA_LEVELS, 'buildings', 'addresses'] as const;

export type AreaLevelName = (typeof AREA_LEVELS)[number];
export type LevelName = (typeof LEVELS)[number];

/** Dataset level (plural, as in manifests and source keys) → the `level` value on area documents. */
export const AREA_LEVEL_VALUE = {
  countries: 'country',
  provinces: 'province',
  municipalities: 'municipality',
  cities: 'city',
  suburbs: 'suburb',
} as const satisfies Record<AreaLevelName, AreaLevel>;

export function isAreaLevel(level: LevelName): level is AreaLevelName {
  return (AREA_LEVELS as readonly string[]).includes(level);
}

/** Levels strictly above `level`, nearest first: the order in which a record looks for parents. */
export function ancestorLevels(level: LevelName): LevelName[] {
  const at = LEVELS.indexOf(level);
  return LEVELS.slice(0, at).reverse();
}

/** Dataset levels that parent other records → the singular level name `PARENT_ID_FIELD` is keyed by. */
const PARENT_LEVEL = { ...AREA_LEVEL_VALUE, buildings: 'building' } as const;

export type ParentLevelName = keyof typeof PARENT_LEVEL;

/** The parent-id slots a document carries, by the level that fills them. */
export const PARENT_SLOT = Object.fromEntries(
  Object.entries(PARENT_LEVEL).map(([level, value]) => [level, PARENT_ID_FIELD[value]]),
) as { readonly [L in ParentLevelName]: (typeof PARENT_ID_FIELD)[(typeof PARENT_LEVEL)[L]] };
