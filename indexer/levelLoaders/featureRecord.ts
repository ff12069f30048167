import type { SourceItem } from '../sources/index.js';

/** What a rejects line shows of a polygon feature: its properties and geometry, null when it had none. */
export function featureRecord(item: SourceItem): { properties: Record<string, unknown>; geometry: unknown } {
  return { properties: item.props, geometry: item.geometry ?? null };
}
