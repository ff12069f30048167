/** The OpenAPI document of this service's endpoints (./endpoints.ts), as GET /openapi.json serves it. */
import { buildOpenApiDocument, type DocumentedLimits } from '../openapi/document.js';
import { ENDPOINTS } from './endpoints.js';

export const apiDocument = (limits?: DocumentedLimits) => buildOpenApiDocument(ENDPOINTS, limits);
