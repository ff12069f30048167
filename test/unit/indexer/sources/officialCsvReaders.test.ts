/**
 * The BeST Address and OpenAddresses readers on files written here from the published layouts (not the fixtures):
 * columns by name in any case, the primary language per region, statuses, both OpenAddresses forms.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../../../indexer/manifest/manifest.js';
import { nameIn, primaryLanguage } from '../../../../indexer/sources/best/bestLayout.js';
import { bestProblems, readBest } from '../../../../indexer/sources/best/readBest.js';
import {
  openAddressesProblems,
  readOpenAddresses,
} from '../../../../indexer/sources/openaddresses/readOpenAddresses.js';
import type { ReadStats, SourceItem } from '../../../../indexer/sources/types.js';
import { addressFromRecord } from '../../../../indexer/transform/address.js';

const dir = mkdtempSync(join(tmpdir(), 'official-csv-'));
function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}
async function all(items: AsyncGenerator<SourceItem>): Promise<SourceItem[]> {
  const out: SourceItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}
const fieldsOf = (format: string, path: string) =>
  parseManifest({ levels: { addresses: [{ file: path, format }] } }, dir).levels.addresses?.[0]?.fields as never;

// An older release's header: Lambert columns named lat/lon, EPSG:4326 columns in upper case, columns reordered.
const BEST = `EPSG:31370_lat,EPSG:31370_lon,EPSG:4326_LAT,EPSG:4326_LON,address_id,house_number,box_number,municipality_id,municipality_name_nl,municipality_name_fr,municipality_name_de,postcode,postname_nl,postname_fr,street_id,streetname_nl,streetname_fr,streetname_de,region_code,status
1,2,51.0543,3.7174,https://data.vlaanderen.be/id/adres/1,12A,,44021,Gent,Gand,Gent,9000,Gent,,1,Veldstraat,,,BE-VLG,current
1,2,50.6326,5.5797,2,3,bte 2,62063,Luik,Liège,Lüttich,4000,,Liège,2,,Rue Léopold,,BE-WAL,current
1,2,50.6280,6.0371,3,7,,63023,Eupen,Eupen,Eupen,4700,,,3,,Rue de Verviers,Verviersstraße,BE-WAL,current
1,2,50.8466,4.3528,4,1,,21004,Brussel,Bruxelles,Brüssel,1000,,,4,Grote Markt,Grand-Place,,BE-BRU,current
1,2,50.8466,4.3528,5,2,,21004,Brussel,Bruxelles,Brüssel,1000,,,4,Grote Markt,Grand-Place,,BE-BRU,retired
`;

describe('BeST Address CSV', () => {
  it("reads the columns by name in any case and shows each address in its region's language", async () => {
    const path = file('openaddress-test.csv', BEST);
    expect(await bestProblems(path)).toEqual([]);
    const stats: ReadStats = { encoding: '' };
    const items = await all(readBest(path, { stats }));
    expect(stats.statuses).toEqual({ kept: { current: 4 }, skipped: { retired: 1 } });
    const fields = fieldsOf('best-csv', path);
    const docs = items.filter((i) => !i.skip).map((i) => addressFromRecord(i.props, undefined, fields));
    const shown = docs.map((d) => (d.ok ? [d.value.streetname, d.value.city, d.value.number, d.value.suffix] : d));
    expect(shown).toEqual([
      ['Veldstraat', 'Gent', '12', 'A'],
      ['Rue Léopold', 'Liège', '3', '-BTE2'],
      ['Verviersstraße', 'Eupen', '7', ''],
      ['Grote Markt', 'Brussel', '1', ''],
    ]);
    // The box is the addition, as the sample's Brussels `addition` column: a typed "bus N" meets it (integration test).
    const eupen = docs[2];
    expect(eupen?.ok && eupen.value.street_names).toEqual({ de: 'Verviersstraße', fr: 'Rue de Verviers' });
    const brussels = docs[3];
    expect(brussels?.ok && brussels.value).toMatchObject({
      street_names: { nl: 'Grote Markt', fr: 'Grand-Place' },
      source_ids: { best_address: '4' },
      location: { lat: 50.8466, lon: 4.3528 },
    });
    expect(docs[0]?.ok && docs[0].value.source_ids).toEqual({ best_address: 'https://data.vlaanderen.be/id/adres/1' });
  });

  it('names the file and the missing columns of a CSV that is not BeST', async () => {
    const path = file('other.csv', 'id,street,number,lat,lon\n1,a,1,50,4\n');
    const [problem] = await bestProblems(path);
    expect(problem).toContain(`${path}: not a BeST Address CSV: columns EPSG:4326_lat, EPSG:4326_lon, address_id`);
  });

  it('primary language: Flanders nl, Wallonia fr, the German-speaking municipalities de, Brussels nl', () => {
    expect(primaryLanguage('BE-VLG', '11002')).toBe('nl');
    expect(primaryLanguage('BE-WAL', '92094')).toBe('fr');
    expect(primaryLanguage('BE-WAL', '63087')).toBe('de');
    expect(primaryLanguage('BE-BRU', '21004')).toBe('nl');
    expect(primaryLanguage('', '57081')).toBe('fr');
    expect(nameIn({ nl: '', fr: 'Rue Haute', de: '' }, 'nl')).toEqual({ name: 'Rue Haute', language: 'fr' });
  });
});

describe('OpenAddresses', () => {
  it('reads the CSV and the GeoJSON-lines form alike, HASH and ID as the source ids', async () => {
    const csv = file(
      'nl.csv',
      'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH\n4.37,51.99,8,Mekelweg,,Delft,,,2628CD,0503200000000001,abc123\n',
    );
    const lines = file(
      'nl.geojson',
      '{"type":"Feature","properties":{"hash":"def456","number":"9","street":"Mekelweg","unit":"2","city":"","district":"Delft","region":"","postcode":"2628CD","id":""},"geometry":{"type":"Point","coordinates":[4.38,52]}}\n',
    );
    expect(await openAddressesProblems(csv)).toEqual([]);
    const docs = [];
    for (const path of [csv, lines]) {
      for (const item of await all(readOpenAddresses(path))) {
        const out = addressFromRecord(item.props, item.geometry, fieldsOf('openaddresses', path));
        if (out.ok) docs.push(out.value);
      }
    }
    expect(docs.map((d) => [d.streetname, d.number, d.addition, d.city, d.location, d.source_ids])).toEqual([
      [
        'Mekelweg',
        '8',
        '',
        'Delft',
        { lon: 4.37, lat: 51.99 },
        { openaddresses_id: '0503200000000001', openaddresses_hash: 'abc123' },
      ],
      ['Mekelweg', '9', '2', 'Delft', { lon: 4.38, lat: 52 }, { openaddresses_hash: 'def456' }],
    ]);
    const [problem] = await openAddressesProblems(file('x.csv', 'lon,lat,street\n'));
    expect(problem).toContain('not an OpenAddresses CSV: NUMBER missing');
  });
});
