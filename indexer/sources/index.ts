import type { FileSource } from '../manifest.js';
import { readCsv } from './csv.js';
import { readGeoJson, readGeoJsonSeq } from './geojson.js';
import type { ReadProgress, SourceItem } from './types.js';

export type { ReadProgress, SourceItem } from './types.js';

export function readSource(source: FileSource, progress?: (p: ReadProgress) => void): AsyncGenerator<SourceItem> {
  switch (source.format) {
    case 'csv':
      return readCsv(source.file, { delimiter: source.delimiter, progress });
    case 'geojson':
      return readGeoJson(source.file, { progress });
    case 'geojsonseq':
      return readGeoJsonSeq(source.file, { progress });
  }
}
