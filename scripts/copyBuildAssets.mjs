// `npm run build`, after tsc: the data files the compiled code reads at run time, at the same relative paths
// (dist/src/elasticsearch/mappings.js reads ../../mappings/*.json, dist/src/text/normalise.js its JSON table).
import { cpSync } from 'node:fs';

cpSync('mappings', 'dist/mappings', { recursive: true });
cpSync('src/text/streetAbbreviations.json', 'dist/src/text/streetAbbreviations.json');
