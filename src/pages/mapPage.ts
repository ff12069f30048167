/**
 * The map page (`/map/`): plain browser ES modules from web/map and MapLibre GL JS from its installed package (its
 * ES module build and its worker), so the page needs no build step and no CDN. It draws the service's own boundary
 * tiles; a base map under them only when the deployment configures one (`config.json`, from MAP_BASE_*).
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MapBase } from '../config/mapBase.js';
import { filesOf, type StaticFile, type StaticPage } from '../http/staticFiles.js';

const MAP_PAGE_PATH = '/map';

/** src/pages/ under tsx and dist/src/pages/ when compiled: web/map sits two folders up in both (the build copies it). */
const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'map');
const PAGE_EXTENSIONS = new Set(['.html', '.css', '.js']);

/** Resolved like an import would, so a hoisted or nested node_modules both work. */
const MAPLIBRE_DIST = dirname(createRequire(import.meta.url).resolve('maplibre-gl/package.json'));
/** The page imports maplibre-gl.mjs, which starts its worker from maplibre-gl-worker.mjs beside it. */
const MAPLIBRE_FILES = [
  'maplibre-gl.mjs',
  'maplibre-gl.mjs.map',
  'maplibre-gl-worker.mjs',
  'maplibre-gl-worker.mjs.map',
  'maplibre-gl.css',
];

function pageFiles(base: MapBase | undefined): StaticFile[] {
  // The folder is listed once at start-up: a request path never becomes a file path.
  const names = readdirSync(PAGE_DIR).filter((name) => PAGE_EXTENSIONS.has(extname(name)));
  const config = { url: `${MAP_PAGE_PATH}/config.json`, file: 'config.json', content: configBody(base) };
  return [
    ...filesOf(MAP_PAGE_PATH, PAGE_DIR, names),
    ...filesOf(`${MAP_PAGE_PATH}/vendor/maplibre`, join(MAPLIBRE_DIST, 'dist'), MAPLIBRE_FILES, true),
    config,
  ];
}

/** What the page reads before it draws: the base map, or `null` (none). */
const configBody = (base: MapBase | undefined) => Buffer.from(JSON.stringify({ base: base ?? null }));

export function mapPage(base?: MapBase): StaticPage {
  return { prefix: MAP_PAGE_PATH, index: join(PAGE_DIR, 'index.html'), files: pageFiles(base) };
}
