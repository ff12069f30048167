// `npm run build`, after tsc: the data files the compiled code reads at run time, at the same relative paths
// (dist/core/elasticsearch/mappings.js reads ../../mappings/*.json, dist/core/text/normalise.js its JSON table).
import { cpSync } from 'node:fs';

cpSync('mappings', 'dist/mappings', { recursive: true });
cpSync('core/text/streetAbbreviations.json', 'dist/core/text/streetAbbreviations.json');
// The /docs page (dist/src/pages/docs.js reads ../../web/docs); Swagger UI itself comes from node_modules.
cpSync('web/docs', 'dist/web/docs', { recursive: true });
// The /map page (dist/src/pages/mapPage.js reads ../../web/map); MapLibre GL JS itself comes from node_modules.
cpSync('web/map', 'dist/web/map', { recursive: true });
