/**
 * Query-parameter pieces the dialects share (pure). Unlike the native routes, a dialect's query schema is loose:
 * its clients send parameters we have no use for (`email`, `dedupe`, node-geocoder's `osmServer`), and Nominatim,
 * Photon and Pelias ignore what they do not know too. The parameters we read are validated as strictly as ours.
 */
import { z } from 'zod';
import type { ErrorShape } from '../../http/errors.js';
import { preferredLanguage, type Language } from '../../language/answerLanguage.js';

export const decimal = z
  .string()
  .trim()
  .regex(/^-?(\d+(\.\d*)?|\.\d+)$/, 'expected a decimal number')
  .transform(Number);
export const latitude = decimal.pipe(z.number().min(-90).max(90));
export const longitude = decimal.pipe(z.number().min(-180).max(180));
/** A whole number, clamped to 1..max as the original services clamp (Nominatim: limit 100 -> 40). */
export const clampedCount = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .transform((v) => Math.min(Math.max(Number(v), 1), max))
    .optional()
    .transform((v) => v ?? fallback);
/** `0`/`1` (Nominatim also sends `true`/`false`: geopy's `extratags=True`). */
export const flag = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true')
  .optional();
export const text = (max: number) => z.string().trim().max(max);

/** A language parameter as those APIs take it (`fr`, `fr-BE`, `fr,nl;q=0.8`): the one we hold names in, or none. */
export const languageOf = (value: string | undefined): Language | undefined => preferredLanguage(value);

export interface Box {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

/** Four numbers as two corners in any order (`x1,y1,x2,y2`: Nominatim's viewbox, Photon's bbox). */
export function boxOfCorners(value: string): Box | { error: string } {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length !== 4 || !parts.every((p) => /^-?(\d+(\.\d*)?|\.\d+)$/.test(p))) {
    return { error: 'expected four comma-separated numbers: lon1,lat1,lon2,lat2' };
  }
  const [x1, y1, x2, y2] = parts.map(Number) as [number, number, number, number];
  if ([x1, x2].some((x) => Math.abs(x) > 180) || [y1, y2].some((y) => Math.abs(y) > 90)) {
    return { error: 'longitudes lie in -180..180, latitudes in -90..90' };
  }
  return { minLon: Math.min(x1, x2), minLat: Math.min(y1, y2), maxLon: Math.max(x1, x2), maxLat: Math.max(y1, y2) };
}

export const corners = z
  .string()
  .transform((value, ctx) => {
    const box = boxOfCorners(value);
    if ('error' in box) {
      ctx.addIssue({ code: 'custom', message: box.error });
      return z.NEVER;
    }
    return box;
  })
  .optional();

/** Comma-separated ids (Nominatim's `osm_ids`, Pelias' `ids`): each once, at most 50, as those services cap them. */
export const idList = z
  .string()
  .trim()
  .min(1)
  .transform((v) =>
    [
      ...new Set(
        v
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ].slice(0, 50),
  );

/**
 * What every route of a dialect declares alike: its tag, the key (also in the query string or the path: their clients
 * cannot send a header), names that follow the language, and errors in the dialect's own shape.
 */
export const dialectRoute = (errorShape: ErrorShape) =>
  ({
    tag: 'Compatibility',
    access: 'key',
    keyInQuery: true,
    keyInPath: true,
    backend: true,
    languages: true,
    errorShape,
  }) as const;

/** The middle of a box, as a focus point. */
export const centreOf = (b: Box) => ({ lat: (b.minLat + b.maxLat) / 2, lon: (b.minLon + b.maxLon) / 2 });
