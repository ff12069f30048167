/**
 * npx tsx bench/belgiumCoverage.ts [-- --manifest datasets/bulk.json]
 *
 * Belgium in the bulk manifest, measured without Elasticsearch on the very code paths that index and answer it:
 * - reverse: the share of the Brussels address points that lie in a municipality, by the Belgian municipality
 *   source read and repaired as the indexer does (areaFromFeature) and tested with the index /reverse keeps in
 *   memory (src/geometry/containment.ts), and how many of those name the address's own municipality;
 * - the street-names join: the share of those addresses whose street joins the manifest's `streetNames` table
 *   (indexer/streetNames.ts), per address and per distinct street.
 * Prints one JSON object.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadManifest } from '../indexer/manifest.js';
import { readCsvTable } from '../indexer/sources/csv.js';
import { readSource } from '../indexer/sources/index.js';
import { StreetNameTable } from '../indexer/streetNames.js';
import { addressFromRecord } from '../indexer/transform/address.js';
import { areaFromFeature } from '../indexer/transform/area.js';
import { AreaIndex, envelopeArea, type IndexedArea, polygonsOf } from '../src/features/reverse/containment.js';

const { values } = parseArgs({ options: { manifest: { type: 'string', default: 'datasets/bulk.json' } } });
const { manifest } = await loadManifest(resolve(values.manifest));

const municipalitySource = (manifest.levels.municipalities ?? []).find((s) => s.fields.names);
const addressSource = (manifest.levels.addresses ?? []).find((s) => s.streetNames);
if (!municipalitySource || !addressSource?.streetNames) throw new Error('the manifest has no Belgian sources');

interface Municipality extends IndexedArea {
  names: string[];
}
const municipalities: Municipality[] = [];
for await (const item of readSource(municipalitySource)) {
  const outcome = areaFromFeature('municipalities', item.props, item.geometry, municipalitySource.fields);
  if (!outcome.ok) continue;
  const r = outcome.value;
  municipalities.push({
    level: 'municipality',
    id: r.localIdentifier,
    envelopeArea: envelopeArea(r.bbox),
    polygons: polygonsOf(r.geometry),
    names: Object.values(r.names ?? { name: r.name }),
  });
}
const index = new AreaIndex(municipalities);

const spec = addressSource.streetNames;
const streetNames = new StreetNameTable(
  spec,
  await readCsvTable(spec.file, spec),
  spec.within?.lookup ? await readCsvTable(spec.within.lookup.file, spec.within.lookup) : [],
);

let addresses = 0;
let inMunicipality = 0;
let ownMunicipality = 0;
let joined = 0;
const streets = new Map<string, boolean>();
for await (const item of readSource(addressSource)) {
  if (item.error) continue;
  const outcome = addressFromRecord(item.props, item.geometry, addressSource.fields);
  if (!outcome.ok) continue;
  const doc = outcome.value;
  addresses++;
  const found = index.containing(doc.location.lon, doc.location.lat).get('municipality');
  if (found) inMunicipality++;
  if (found?.names.includes(doc.city)) ownMunicipality++;
  const hit = streetNames.join(item.props, doc.street_key) !== undefined;
  if (hit) joined++;
  streets.set(`${doc.city_key}|${doc.street_key}`, hit);
}
const share = (n: number, of: number) => Number(((100 * n) / of).toFixed(2));
const joinedStreets = [...streets.values()].filter(Boolean).length;
console.log(
  JSON.stringify({
    addressFile: addressSource.file,
    addresses,
    reverseMunicipality: { addresses: inMunicipality, percent: share(inMunicipality, addresses) },
    reverseNamesOwnMunicipality: { addresses: ownMunicipality, percent: share(ownMunicipality, addresses) },
    streetNamesJoined: { addresses: joined, percent: share(joined, addresses) },
    streetsJoined: { streets: joinedStreets, of: streets.size, percent: share(joinedStreets, streets.size) },
    areaIndex: index.stats,
  }),
);
