/** A source record's properties and how one reads as text (pure). */
export type Properties = Record<string, unknown>;

/**
 * Source values arrive as strings (CSV: csv-parse is never asked to cast) or JSON scalars (GeoJSON);
 * both read as trimmed strings, so an identifier is never turned into a number here. A JSON number
 * has already lost any leading zero in the source file itself; see `padStart` in the manifest.
 */
export function propertyText(props: Properties, name: string): string {
  const value = props[name];
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}
