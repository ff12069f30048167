/** The API reference page: Swagger UI at /docs on GET /openapi.json (src/features/service/endpoints.ts). */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesOf, type StaticPage } from '../http/staticFiles.js';
const DOCS_PATH = '/docs';

/** web/docs: two levels up from src/pages/ under tsx and from dist/src/pages/ in the build (which copies it). */
const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../web/docs');
const PAGE_FILES = ['init.js'];
/** Only what the page loads from the package (not its own index.html, its demo initializer or the source maps). */
const SWAGGER_UI_FILES = [
  'swagger-ui-bundle.js',
  'swagger-ui.css',
  'index.css',
  'favicon-32x32.png',
  'favicon-16x16.png',
];
const swaggerUiDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Swagger UI on /openapi.json, served at /docs/ (src/http/staticFiles.ts). */
export function apiReferencePage(): StaticPage {
  return {
    prefix: DOCS_PATH,
    index: join(PAGE_DIR, 'index.html'),
    files: [...filesOf(DOCS_PATH, PAGE_DIR, PAGE_FILES), ...filesOf(DOCS_PATH, swaggerUiDir(), SWAGGER_UI_FILES, true)],
  };
}
