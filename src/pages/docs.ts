/** The API reference: GET /openapi.json (generated from the zod schemas) and the Swagger UI page on it at /docs. */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import { JSON_TYPE } from '../http/mediaType.js';
import { filesOf, type StaticPage } from '../http/staticFiles.js';
import { buildOpenApiDocument, type DocumentedLimits } from '../openapi/document.js';
import { OPENAPI_PATH } from '../openapi/operations.js';

export { OPENAPI_PATH };
const DOCS_PATH = '/docs';

/** web/docs: two levels up from src/routes/ under tsx and from dist/src/routes/ in the build (which copies it). */
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

export function registerApiReference(router: Router, limits: DocumentedLimits): void {
  // Built once: the schemas do not change while the process runs.
  const document = JSON.stringify(buildOpenApiDocument(limits));
  router.get(OPENAPI_PATH, (ctx) => {
    ctx.type = JSON_TYPE;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = document;
  });
}

/** Swagger UI on /openapi.json, served at /docs/ (src/http/staticFiles.ts). */
export function apiReferencePage(): StaticPage {
  return {
    prefix: DOCS_PATH,
    index: join(PAGE_DIR, 'index.html'),
    files: [...filesOf(DOCS_PATH, PAGE_DIR, PAGE_FILES), ...filesOf(DOCS_PATH, swaggerUiDir(), SWAGGER_UI_FILES, true)],
  };
}
