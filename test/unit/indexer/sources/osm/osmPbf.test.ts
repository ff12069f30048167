/**
 * The OpenStreetMap PBF reader (indexer/sources/osm/) on the two real extracts of data/sample/osm/: every object with
 * addr:housenumber read (the counts osmium gives for the same files), each indexed or rejected with a reason, the
 * administrative boundaries assembled, and a damaged file failing with the file, the blob and its byte offset.
 */
import { execFileSync } from 'node:child_process';
import { deflateSync } from 'node:zlib';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseManifest } from '../../../../../indexer/manifest/manifest.js';
import { validateManifest } from '../../../../../indexer/commands/validate.js';
import { readBlobs } from '../../../../../indexer/sources/osm/pbfBlobs.js';
import { BlobInflater } from '../../../../../indexer/sources/osm/blobInflater.js';
import { readOsmAddresses } from '../../../../../indexer/sources/osm/readOsmAddresses.js';
import { readOsmAreas } from '../../../../../indexer/sources/osm/readOsmAreas.js';
import { evenlySpaced, readOsmFeatures } from '../../../../../indexer/sources/osm/readOsmFeatures.js';
import { assembleMultipolygon } from '../../../../../indexer/sources/osm/rings.js';
import { SourceFileError, type SourceItem } from '../../../../../indexer/sources/types.js';
import { addressFromRecord } from '../../../../../indexer/transform/address.js';
import { areaFromFeature } from '../../../../../indexer/transform/area.js';
import type { AddressSource, AreaSource } from '../../../../../indexer/manifest/manifestSources.js';
import { CountryClaims } from '../../../../../indexer/levelLoaders/countryClaims.js';
import type { AreaRecord } from '../../../../../indexer/records/records.js';

const DELFT = resolve('data/sample/osm/delft_tudelft_2025-08.osm.pbf');
const LIECHTENSTEIN = resolve('data/sample/osm/liechtenstein_2015-07-27.osm.pbf');
const dir = mkdtempSync(join(tmpdir(), 'osm-pbf-'));

async function all(items: AsyncGenerator<SourceItem>): Promise<SourceItem[]> {
  const out: SourceItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** What osmium (the reference reader) counts in the file: objects of each type with the tag. */
function osmiumCount(file: string, ...filters: string[]): Record<'n' | 'w' | 'r', number> {
  const opl = execFileSync('osmium', ['tags-filter', '-R', '-f', 'opl', '-o', '-', file, ...filters], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const counts = { n: 0, w: 0, r: 0 };
  for (const line of opl.split('\n')) if (line) counts[line[0] as 'n' | 'w' | 'r']++;
  return counts;
}

const fieldsOf = (level: 'addresses' | 'municipalities') => {
  const m = parseManifest({ levels: { [level]: [{ file: 'x.osm.pbf', format: 'osm-pbf' }] } }, dir);
  return m.levels[level]?.[0]?.fields;
};

describe('osm-pbf addresses', () => {
  for (const [name, file] of [
    ['Delft', DELFT],
    ['Liechtenstein', LIECHTENSTEIN],
  ] as const) {
    it(`reads every object of ${name} with addr:housenumber, as osmium counts them, each indexed or rejected`, async () => {
      const items = await all(readOsmAddresses(file));
      const osmium = osmiumCount(file, 'n/addr:housenumber', 'w/addr:housenumber', 'r/addr:housenumber');
      const byType = { n: 0, w: 0, r: 0 };
      for (const item of items) byType[String(item.props.osm_type)[0] as 'n' | 'w' | 'r']++;
      expect(byType).toEqual(osmium);
      const fields = fieldsOf('addresses') as AddressSource['fields'];
      let indexed = 0;
      const rejected: string[] = [];
      for (const item of items) {
        if (item.error) {
          rejected.push(item.error);
          continue;
        }
        const outcome = addressFromRecord(item.props, undefined, fields);
        if (outcome.ok) indexed++;
        else rejected.push(`${outcome.reason}: ${outcome.detail}`);
      }
      expect(indexed + rejected.length).toBe(items.length);
      // A handful only, each with its reason (no street or place; a relation with no members in the extract).
      expect(rejected.length).toBeLessThan(items.length * 0.01);
      for (const reason of rejected) expect(reason).toMatch(/missing_street|relation \d+/);
    });
  }

  it('places a node where it is, a building way inside its outline, with its tags as the fields', async () => {
    const items = await all(readOsmAddresses(DELFT));
    const node = items.find((i) => i.props.osm_object === 'node/34047644');
    expect(node?.props).toMatchObject({
      'addr:street': 'Mekelweg',
      'addr:housenumber': '8',
      lon: 4.3734803,
      lat: 51.9953593,
    });
    const fields = fieldsOf('addresses') as AddressSource['fields'];
    const doc = addressFromRecord(node?.props ?? {}, undefined, fields);
    expect(doc.ok && doc.value).toMatchObject({
      streetname: 'Mekelweg',
      number: '8',
      postcode: '2628CD',
      city: 'Delft',
    });
    expect(doc.ok && doc.value.source_ids).toEqual({ osm: 'node/34047644' });
    // The CSV of the same extract (osmium export) places ways and relations at a point inside them.
    const csv = readFileSync('data/sample/osm/delft_addresses.csv', 'utf8').split('\n');
    for (const line of csv.filter((l) => /^(way|relation),/.test(l))) {
      const [type, id] = line.split(',');
      const item = items.find((i) => i.props.osm_object === `${type}/${id}`);
      expect(item?.error, line).toBeUndefined();
      const [lon, lat] = line.split(',').slice(-3, -1).map(Number) as [number, number];
      expect(Math.abs((item?.props.lon as number) - lon)).toBeLessThan(0.002);
      expect(Math.abs((item?.props.lat as number) - lat)).toBeLessThan(0.002);
    }
  });
});

describe('osm-pbf areas', () => {
  it("assembles Liechtenstein's country, its two Wahlkreise and eleven Gemeinden, skipping its neighbours' cut ones", async () => {
    const countries = await all(readOsmAreas(LIECHTENSTEIN, 'countries', { country: 'LI' }));
    const kept = (items: SourceItem[]) => items.filter((i) => !i.skip && !i.error);
    expect(kept(countries).map((i) => [i.props.name, i.props.country_code])).toEqual([['Liechtenstein', 'LI']]);
    expect(countries.filter((i) => i.skip).length).toBeGreaterThan(0);
    const provinces = kept(await all(readOsmAreas(LIECHTENSTEIN, 'provinces', { country: 'LI' })));
    expect(provinces.map((i) => i.props.name).sort()).toEqual(['Wahlkreis Oberland', 'Wahlkreis Unterland']);
    const municipalities = kept(await all(readOsmAreas(LIECHTENSTEIN, 'municipalities', { country: 'LI' })));
    const names = municipalities.map((i) => i.props.name).sort();
    expect(names).toEqual(
      [
        'Balzers',
        'Eschen',
        'Gamprin',
        'Mauren',
        'Planken',
        'Ruggell',
        'Schaan',
        'Schellenberg',
        'Triesen',
        'Triesenberg',
        'Vaduz',
      ].sort(),
    );
    const fields = fieldsOf('municipalities') as AreaSource['fields'];
    for (const item of municipalities) {
      const area = areaFromFeature('municipalities', item.props, item.geometry, fields);
      expect(area.ok, String(item.props.name)).toBe(true);
    }
    // Vaduz's town hall lies in Vaduz.
    const vaduz = municipalities.find((i) => i.props.name === 'Vaduz');
    const area = areaFromFeature('municipalities', vaduz?.props ?? {}, vaduz?.geometry, fields);
    expect(area.ok && area.value.bbox.min_lon < 9.52 && area.value.bbox.max_lon > 9.52).toBe(true);
  });

  it('reads the boundaries of a level as osmium counts them: every admin_level 8 relation is read or skipped', async () => {
    const all8 = await all(readOsmAreas(LIECHTENSTEIN, 'municipalities', { adminLevels: [8] }));
    const opl = execFileSync(
      'osmium',
      ['tags-filter', '-f', 'opl', '-o', '-', LIECHTENSTEIN, 'r/boundary=administrative'],
      {
        encoding: 'utf8',
      },
    );
    const relations = opl
      .split('\n')
      .filter((l) => /^r/.test(l) && / T.*admin_level=8/.test(l) && /type=(boundary|multipolygon)/.test(l));
    expect(all8.length).toBe(relations.length);
  });

  it("takes the Delft extract's woonplaatsen (admin_level 10) as the Netherlands' cities", async () => {
    const cities = (await all(readOsmAreas(DELFT, 'cities', { country: 'NL' }))).filter((i) => !i.skip && !i.error);
    expect(cities.map((i) => [i.props.name, i.props['ref:woonplaatscode']]).sort()).toEqual([
      ['Delfgauw', '1143'],
      ['Delft', '2138'],
    ]);
  });
});

describe('multipolygon assembly', () => {
  const way = (id: number, nodes: number[], coords: [number, number][]) => ({ id, nodes, coords });
  it('joins ways end to end (either way round) and nests a hole in its outer ring', () => {
    const outer1 = way(
      1,
      [1, 2, 3],
      [
        [0, 0],
        [10, 0],
        [10, 10],
      ],
    );
    const outer2 = way(
      2,
      [1, 4, 3],
      [
        [0, 0],
        [0, 10],
        [10, 10],
      ],
    );
    const hole = way(
      3,
      [5, 6, 7, 5],
      [
        [4, 4],
        [6, 4],
        [6, 6],
        [4, 4],
      ],
    );
    const result = assembleMultipolygon([outer1, hole, outer2]);
    expect(result.ok && result.geometry.coordinates.length).toBe(1);
    expect(result.ok && result.geometry.coordinates[0]?.length).toBe(2);
  });
  it('refuses a ring that does not close, naming the way and the node', () => {
    const result = assembleMultipolygon([
      way(
        1,
        [1, 2, 3],
        [
          [0, 0],
          [1, 0],
          [1, 1],
        ],
      ),
    ]);
    expect(result).toEqual({ ok: false, detail: expect.stringMatching(/way 1 ends at node 3/) });
  });
});

describe('BlobInflater', () => {
  it('inflates blob after blob into one reused buffer, as inflateSync does; a damaged one fails, the next inflates', () => {
    const inflater = new BlobInflater();
    const a = Buffer.from('a'.repeat(5000) + 'b'.repeat(3000));
    const b = Buffer.from('node,way,relation '.repeat(200));
    const first = inflater.inflate(deflateSync(a), a.length, 64 * 1024);
    expect(Buffer.from(first).equals(a)).toBe(true);
    const firstBuffer = first.buffer;
    const second = inflater.inflate(deflateSync(b), b.length, 64 * 1024);
    expect(Buffer.from(second).equals(b)).toBe(true);
    // No new buffer per blob: the second lies in the first's memory.
    expect(second.buffer).toBe(firstBuffer);
    const damaged = Buffer.from(deflateSync(a));
    damaged[5] = (damaged[5] as number) ^ 0xff;
    expect(() => inflater.inflate(damaged, a.length, 64 * 1024)).toThrow();
    expect(() => inflater.inflate(deflateSync(a).subarray(0, 20), a.length, 64 * 1024)).toThrow();
    expect(Buffer.from(inflater.inflate(deflateSync(b), b.length, 64 * 1024)).equals(b)).toBe(true);
    // More than the blob says is more (pbfBlobs.ts refuses a blob whose size is not the one it says).
    expect(inflater.inflate(deflateSync(a), 100, 64 * 1024).length).toBeGreaterThan(100);
    inflater.close();
  });
});

describe('a damaged PBF file', () => {
  const bytes = readFileSync(LIECHTENSTEIN);
  const write = (name: string, data: Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };
  /** Byte offset of the blob `n` (0: the header), as the reader's own framing finds them. */
  let offsets: number[] = [];
  const blobOffset = (n: number) => offsets[n] as number;
  beforeAll(async () => {
    offsets = [];
    for await (const blob of readBlobs(LIECHTENSTEIN)) offsets.push(blob.offset);
  });
  const failure = async (path: string) => {
    try {
      await all(readOsmAddresses(path));
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('fails on a truncated file naming the blob and its offset', async () => {
    const cut = blobOffset(5) + 100;
    const path = write('truncated.osm.pbf', bytes.subarray(0, cut));
    const error = await failure(path);
    expect(error).toBeInstanceOf(SourceFileError);
    expect((error as Error).message).toBe(
      `${path}: blob 5 at byte ${blobOffset(5)}: file truncated: the blob needs ${blobOffset(6) - blobOffset(5) - 4 - bytes.readUInt32BE(blobOffset(5))} bytes at byte ${blobOffset(5) + 4 + bytes.readUInt32BE(blobOffset(5))}, the file ends at byte ${cut}`,
    );
  });

  it('fails on damaged zlib data naming the blob', async () => {
    const damaged = Buffer.from(bytes);
    const at = blobOffset(3) + 4 + damaged.readUInt32BE(blobOffset(3)) + 40;
    for (let i = at; i < at + 64; i++) damaged[i] = 0x55;
    const path = write('zlib.osm.pbf', damaged);
    expect(((await failure(path)) as Error).message).toMatch(
      new RegExp(`^${path}: blob 3 at byte ${blobOffset(3)}: (zlib data damaged|damaged blob)`),
    );
  });

  it('fails on a file that is not PBF at all', async () => {
    const path = write('not.osm.pbf', Buffer.from('<?xml version="1.0"?><osm version="0.6"></osm>'));
    expect(((await failure(path)) as Error).message).toMatch(
      new RegExp(`^${path}: blob 0 at byte 0: not an OSM PBF file`),
    );
  });
});

describe('the osm-pbf manifest', () => {
  const parse = (levels: object) => () => parseManifest({ levels }, dir);
  it('fills in the fields of every level it feeds and refuses the others and misplaced options', () => {
    const m = parseManifest(
      { levels: { countries: [{ file: 'x.osm.pbf', format: 'osm-pbf', osm: { country: 'LI' } }] } },
      dir,
    );
    expect(m.levels.countries?.[0]?.fields).toMatchObject({
      key: 'osm_key',
      name: 'name',
      countryCode: 'country_code',
    });
    expect(parse({ buildings: [{ file: 'x.osm.pbf', format: 'osm-pbf', fields: { key: 'k' } }] })).toThrow(
      /osm-pbf feeds countries and provinces and municipalities and cities and suburbs and addresses only/,
    );
    expect(
      parse({
        countries: [{ file: 'x.geojson', format: 'geojson', osm: { country: 'LI' }, fields: { key: 'k', name: 'n' } }],
      }),
    ).toThrow(/osm: only for osm-pbf sources/);
    expect(parse({ addresses: [{ file: 'x.osm.pbf', format: 'osm-pbf', osm: { adminLevels: [8] } }] })).toThrow(
      /adminLevels: only for area levels/,
    );
    expect(parse({ addresses: [{ file: 'x.osm.pbf', format: 'osm-pbf', encoding: 'latin1' }] })).toThrow(
      /encoding: not for osm-pbf sources/,
    );
  });
});

describe('osm-pbf streets and places', () => {
  /** osmium's count of the objects the filters select one after the other (the second on the first's output). */
  const osmiumChain = (file: string, first: string, second: string): number => {
    const opl = execFileSync('osmium', ['tags-filter', '-R', '-f', 'opl', '-o', '-', file, first], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const out = execFileSync('osmium', ['tags-filter', '-R', '-F', 'opl', '-f', 'opl', '-o', '-', '-', second], {
      input: opl,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    return out.split('\n').filter(Boolean).length;
  };
  const STREETS =
    'w/highway=trunk,primary,secondary,tertiary,unclassified,residential,living_street,pedestrian,road,service';
  const PLACES = 'n/place=city,town,village,hamlet,suburb,neighbourhood';

  for (const [name, file, ways, nodes] of [
    ['Delft', DELFT, 1934, 10],
    ['Liechtenstein', LIECHTENSTEIN, 1506, 23],
  ] as const) {
    it(`reads ${name}'s named street ways and place nodes as osmium counts them, each placed`, async () => {
      const features = await readOsmFeatures(file);
      expect(features.streets).toHaveLength(osmiumChain(file, STREETS, 'w/name'));
      expect(features.streets).toHaveLength(ways);
      expect(features.places).toHaveLength(osmiumChain(file, PLACES, 'n/name'));
      expect(features.places).toHaveLength(nodes);
      for (const way of features.streets) {
        expect(way.coords.length, `way ${way.id}`).toBeGreaterThan(0);
        expect(way.coords.length).toBeLessThanOrEqual(2 * 16);
      }
    });
  }

  it("reads Liechtenstein's hamlets and a street with its points in order", async () => {
    const { streets, places } = await readOsmFeatures(LIECHTENSTEIN);
    expect(places.find((p) => p.name === 'Malbun')).toMatchObject({ place: 'hamlet', lon: 9.6083946, lat: 47.1027934 });
    expect(places.find((p) => p.name === 'Steg')).toMatchObject({ place: 'hamlet' });
    const stadtle = streets.filter((s) => s.name === 'Städtle');
    expect(stadtle.map((s) => s.highway).sort()).toEqual(['pedestrian', 'pedestrian', 'pedestrian', 'residential']);
  });

  it('`validate` reports the named street ways and place nodes of an osm-pbf address source', async () => {
    const manifest = join(dir, 'validate-streets.json');
    writeFileSync(manifest, JSON.stringify({ levels: { addresses: [{ file: LIECHTENSTEIN, format: 'osm-pbf' }] } }));
    const report = await validateManifest(manifest, { maxRejectRatio: 0.05 });
    expect(report.levels.addresses?.[0]).toMatchObject({ read: 1008, osm: { streetWays: 1506, placeNodes: 23 } });
  });

  it('keeps the first and last node of a long way and evenly spaced ones between', () => {
    const refs = Array.from({ length: 31 }, (_, i) => i + 100);
    expect(evenlySpaced(refs, 31, 4)).toEqual([100, 110, 120, 130]);
    expect(evenlySpaced(refs, 3, 4)).toEqual([100, 101, 102]);
  });
});

describe('which source of a level wins a country', () => {
  const area = (countryCode: string, country_id = '') =>
    ({ countryCode, parents: { country_id } }) as unknown as AreaRecord;
  it('keeps the first source listed where an osm-pbf source is one of the two, both register sources otherwise', () => {
    // Natural Earth (a register-like file) listed after the Liechtenstein extract: its Liechtenstein is skipped.
    const countries = new CountryClaims([true, false]);
    expect(countries.claim('countries', area('LI'), 0)).toBe(true);
    expect(countries.claim('countries', area('LI'), 1)).toBe(false);
    expect(countries.claim('countries', area('AT'), 1)).toBe(true);
    // CBS listed first, then the Delft extract: the Netherlands stays CBS's; no country, never skipped.
    const municipalities = new CountryClaims([false, true]);
    expect(municipalities.claim('municipalities', area('', 'nl'), 0)).toBe(true);
    expect(municipalities.claim('municipalities', area('', 'nl'), 1)).toBe(false);
    expect(municipalities.claim('municipalities', area('', ''), 1)).toBe(true);
    // Two register files of one country (one per province): both kept.
    const registers = new CountryClaims([false, false]);
    expect(registers.claim('municipalities', area('', 'nl'), 0)).toBe(true);
    expect(registers.claim('municipalities', area('', 'nl'), 1)).toBe(true);
  });

  it('holds for addresses as for areas; what a source gives besides its records does not claim a country', () => {
    // The Delft CSV, then the Delft extract: the Netherlands' addresses are the CSV's.
    const addresses = new CountryClaims([false, true]);
    expect(addresses.keeps('nl', 1)).toBe(true);
    expect(addresses.claimCountry('nl', 0)).toBe(true);
    expect(addresses.claimCountry('nl', 1)).toBe(false);
    expect(addresses.keeps('nl', 1)).toBe(false);
    expect(addresses.keeps('li', 1)).toBe(true);
    expect(addresses.claimCountry('li', 1)).toBe(true);
    expect(addresses.claimCountry('', 1)).toBe(true);
  });
});
