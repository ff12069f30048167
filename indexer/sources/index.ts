import type { FileSource } from '../manifest/manifestSources.js';
import { readCsv } from './csv.js';
import { readGeoJson, readGeoJsonSeq } from './geojson.js';
import { readBagAddresses, readBagCities } from './bag/readBag.js';
import { readBest } from './best/readBest.js';
import { readOpenAddresses } from './openaddresses/readOpenAddresses.js';
import { readOsmAddresses } from './osm/readOsmAddresses.js';
import { readOsmAreas } from './osm/readOsmAreas.js';
import { isAreaLevel, type LevelName } from '../base/levels.js';
import type { ReadProgress, ReadStats, SourceItem } from './types.js';

export type { ReadProgress, ReadStats, SourceItem, StatusCounts } from './types.js';
export { SourceFileError } from './types.js';

export function readSource(
  source: FileSource,
  progress?: (p: ReadProgress) => void,
  stats?: ReadStats,
  level?: LevelName,
): AsyncGenerator<SourceItem> {
  const options = { encoding: source.encoding, progress, stats };
  switch (source.format) {
    case 'csv':
      return readCsv(source.file, { ...options, delimiter: source.delimiter });
    case 'geojson':
      return readGeoJson(source.file, options);
    case 'geojsonseq':
      return readGeoJsonSeq(source.file, options);
    case 'bag-gpkg': {
      const bag = { progress, stats, keep: source.statuses?.keep };
      return level === 'cities' ? readBagCities(source.file, bag) : readBagAddresses(source.file, bag);
    }
    case 'best-csv':
      return readBest(source.file, { ...options, keep: source.statuses?.keep });
    case 'openaddresses':
      return readOpenAddresses(source.file, options);
    case 'osm-pbf':
      if (level && isAreaLevel(level)) {
        return readOsmAreas(source.file, level, {
          progress,
          stats,
          country: source.osm?.country,
          adminLevels: source.osm?.adminLevels,
        });
      }
      return readOsmAddresses(source.file, { progress, stats });
  }
}
