/**
 * Whom the live generation's data comes from (core/elasticsearch/attribution.ts): the table the indexer kept in the
 * indexes' `_meta`, read once per generation (from the addresses index: a run swaps every alias together), and what
 * an answer names from it: the sources of the levels it shows, in the country of each place.
 */
import type { Client } from '@elastic/elasticsearch';
import {
  ATTRIBUTED_LEVELS,
  type AttributedLevel,
  type SourceAttribution,
} from '../../core/elasticsearch/attribution.js';
import { elasticsearchCall } from '../elasticsearch/failures.js';
import { concreteIndexes, GenerationCache, type IndexGenerations } from './generations.js';

/**
 * What an answer says when the generation records no source for what it shows (a generation indexed before the
 * table was kept, a manifest that names no credit): where to read about the data, not a guess at its sources.
 */
export const UNRECORDED_SOURCES = 'Data sources and licences: see the service documentation (/docs/)';

/** One level of data a place shows, in the place's country (ISO 3166-1 alpha-2, "" unknown). */
export interface SourceUse {
  level: AttributedLevel;
  country: string;
}

export class Attribution {
  constructor(private readonly entries: readonly SourceAttribution[]) {}

  /**
   * The credits of the sources behind `uses`, in their order (a place's own level first), each once. A source
   * limited to some countries is named only for a place in one of them; one without countries (world-wide) for any.
   */
  named(uses: readonly SourceUse[]): string[] {
    const out: string[] = [];
    for (const use of uses) {
      for (const entry of this.entries) {
        if (entry.level !== use.level || out.includes(entry.text)) continue;
        if (!entry.countries || entry.countries.includes(use.country)) out.push(entry.text);
      }
    }
    return out;
  }

  /** The credits of every source feeding `levels`, whatever the country (a tileset of everything), each once. */
  ofLevels(levels: readonly AttributedLevel[]): string[] {
    const out: string[] = [];
    for (const entry of this.entries) {
      if (levels.includes(entry.level) && !out.includes(entry.text)) out.push(entry.text);
    }
    return out;
  }

  /** The credits as one line: `; `-separated, or UNRECORDED_SOURCES when there is none. */
  text(uses: readonly SourceUse[]): string {
    const named = this.named(uses);
    return named.length ? named.join('; ') : UNRECORDED_SOURCES;
  }
}

/** The table as stored, each entry checked (a hand-edited or older `_meta` is read as far as it holds). */
export function attributionOfMeta(meta: unknown): Attribution {
  const table = (meta as { indexer?: { attribution?: unknown } } | undefined)?.indexer?.attribution;
  if (!Array.isArray(table)) return new Attribution([]);
  const entries = (table as Partial<Record<keyof SourceAttribution, unknown>>[]).filter(
    (e): e is SourceAttribution =>
      typeof e === 'object' &&
      e !== null &&
      (ATTRIBUTED_LEVELS as readonly unknown[]).includes(e.level) &&
      typeof e.text === 'string' &&
      (e.countries === undefined ||
        (Array.isArray(e.countries) && e.countries.every((c: unknown) => typeof c === 'string'))),
  );
  return new Attribution(entries);
}

export class AttributionRepository {
  private readonly table: GenerationCache<Attribution>;

  constructor(
    private readonly client: Client,
    generations: IndexGenerations,
  ) {
    this.table = new GenerationCache(generations, 'addresses', (generation) => this.load(generation));
    this.table.loadOnNewGeneration();
  }

  sources(): Promise<Attribution> {
    return this.table.get();
  }

  private async load(generation: string): Promise<Attribution> {
    const index = concreteIndexes(generation);
    const res = await elasticsearchCall(() => this.client.indices.getMapping({ index }));
    // Several concrete indexes behind the alias (a rare mid-swap moment): any one's table serves.
    const meta = Object.values(res).find((m) => m.mappings?._meta?.indexer)?.mappings._meta;
    return attributionOfMeta(meta);
  }
}
