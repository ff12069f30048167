/**
 * The map page (`/map/`): plain browser ES modules from web/map and Leaflet from its installed package, so the
 * page needs no build step, no CDN and no tile server (its base layer is the service's own boundaries).
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesOf, type StaticFile, type StaticPage } from '../http/staticFiles.js';

const MAP_PAGE_PATH = '/map';

/** src/pages/ under tsx and dist/src/pages/ when compiled: web/map sits two folders up in both (the build copies it). */
const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'map');
const PAGE_EXTENSIONS = new Set(['.html', '.css', '.js']);

/** Resolved like an import would, so a hoisted or nested node_modules both work. */
const LEAFLET_DIST = dirname(createRequire(import.meta.url).resolve('leaflet/dist/leaflet.js'));
const LEAFLET_FILES = ['leaflet.js', 'leaflet.js.map', 'leaflet.css'];
/** leaflet.css names its marker and control images relative to itself. */
const LEAFLET_IMAGES = ['marker-icon.png', 'marker-icon-2x.png', 'marker-shadow.png', 'layers.png', 'layers-2x.png'];

function pageFiles(): StaticFile[] {
  // The folder is listed once at start-up: a request path never becomes a file path.
  const names = readdirSync(PAGE_DIR).filter((name) => PAGE_EXTENSIONS.has(extname(name)));
  return [
    ...filesOf(MAP_PAGE_PATH, PAGE_DIR, names),
    ...filesOf(`${MAP_PAGE_PATH}/vendor/leaflet`, LEAFLET_DIST, LEAFLET_FILES, true),
    ...filesOf(`${MAP_PAGE_PATH}/vendor/leaflet/images`, join(LEAFLET_DIST, 'images'), LEAFLET_IMAGES, true),
  ];
}

export function mapPage(): StaticPage {
  return { prefix: MAP_PAGE_PATH, index: join(PAGE_DIR, 'index.html'), files: pageFiles() };
}
