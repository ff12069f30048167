/**
 * The map page's optional base map under the boundary tiles (off by default: the page then reaches no other host).
 * A deployment names either a MapLibre style (`MAP_BASE_STYLE_URL`) or a raster tile URL with `{z}`, `{x}` and `{y}`
 * (`MAP_BASE_RASTER_URL`, with `MAP_BASE_ATTRIBUTION`); the page's Content-Security-Policy then lets the page
 * fetch from that URL's origin (and only that one: a style whose sources, sprites or glyphs live on other hosts
 * needs them on the same origin, or a proxy in front).
 */
import { z } from 'zod';
import { ConfigError, parseEnv } from '../../core/config/rules.js';

const httpUrl = z.url({ protocol: /^https?$/ });

export const MapBaseEnvSchema = z.object({
  MAP_BASE_STYLE_URL: httpUrl.optional(),
  MAP_BASE_RASTER_URL: httpUrl
    .refine((url) => ['{z}', '{x}', '{y}'].every((part) => url.includes(part)), 'must hold {z}, {x} and {y}')
    .optional(),
  MAP_BASE_ATTRIBUTION: z.string().max(500).optional(),
});

/** What the page is told (`/map/config.json`): a style URL, or a raster tile URL and its attribution. */
export type MapBase = { style: string } | { raster: string; attribution: string };

export function mapBaseOf(source: NodeJS.ProcessEnv): MapBase | undefined {
  const env = parseEnv(MapBaseEnvSchema, source);
  if (env.MAP_BASE_STYLE_URL && env.MAP_BASE_RASTER_URL) {
    throw new ConfigError('Set MAP_BASE_STYLE_URL or MAP_BASE_RASTER_URL, not both');
  }
  if (env.MAP_BASE_STYLE_URL) return { style: env.MAP_BASE_STYLE_URL };
  if (env.MAP_BASE_RASTER_URL) return { raster: env.MAP_BASE_RASTER_URL, attribution: env.MAP_BASE_ATTRIBUTION ?? '' };
  return undefined;
}

/** The origin the page must be allowed to fetch the base map from (none without one). */
export function mapBaseOrigins(base: MapBase | undefined): string[] {
  if (!base) return [];
  // The template's braces are not valid in a host; they only ever stand in the path or query.
  const url = 'style' in base ? base.style : base.raster;
  return [new URL(url.replaceAll('{', '%7B').replaceAll('}', '%7D')).origin];
}
