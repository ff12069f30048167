/**
 * The response schemas, by what they describe (src/schemas/responses/): each one validates in tests, feeds the
 * OpenAPI document and, through its field list, picks a record's fields (src/schemas/pick.ts). One import path
 * for them all.
 */
export * from './responses/addresses.js';
export * from './responses/autocomplete.js';
export * from './responses/errors.js';
export * from './responses/geojson.js';
export * from './responses/hierarchy.js';
export * from './responses/reverse.js';
export * from './responses/search.js';
export * from './responses/service.js';
