/** Reading mapped fields and filters out of a record's properties (pure). */
import type { FieldSpec, Filter } from '../manifest/manifestSources.js';
import { type Properties, propertyText } from '../base/properties.js';

export { type Properties, propertyText };

/** Leading zeros back on a fixed-width numeric code; anything but digits is left as it is. */
export function padDigits(value: string, width: number | undefined): string {
  return width !== undefined && /^[0-9]+$/.test(value) ? value.padStart(width, '0') : value;
}

export function readField(props: Properties, spec: FieldSpec | undefined): string {
  if (spec === undefined) return '';
  if (typeof spec === 'string') return propertyText(props, spec);
  if ('value' in spec) return spec.value;
  if ('property' in spec) {
    const value = padDigits(propertyText(props, spec.property), spec.padStart);
    return value ? `${spec.prefix ?? ''}${value}` : '';
  }
  if ('join' in spec) {
    const parts = spec.join.map((name) => propertyText(props, name));
    return parts.some((p) => p === '') ? '' : parts.join(spec.separator ?? '/');
  }
  for (const inner of spec.first) {
    const value = readField(props, inner);
    if (value) return value;
  }
  return '';
}

/** Every property name a field spec reads (for checking a CSV header before any record is read). */
export function fieldProperties(spec: FieldSpec): string[] {
  if (typeof spec === 'string') return [spec];
  if ('value' in spec) return [];
  if ('property' in spec) return [spec.property];
  if ('join' in spec) return spec.join;
  return spec.first.flatMap(fieldProperties);
}

export function matchesFilters(props: Properties, filters: readonly Filter[]): boolean {
  return filters.every((filter) => {
    const value = propertyText(props, filter.property);
    if ('equals' in filter) return value === String(filter.equals);
    if ('in' in filter) return filter.in.some((v) => String(v) === value);
    if ('notIn' in filter) return !filter.notIn.some((v) => String(v) === value);
    return (value !== '') === filter.exists;
  });
}
