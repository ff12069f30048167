import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest, ManifestError, parseManifest } from '../../../../indexer/manifest/manifest.js';
import { attributionOf } from '../../../../indexer/manifest/attribution.js';

const base = '/data/manifests';

function errorOf(raw: unknown): ManifestError {
  try {
    parseManifest(raw, base);
  } catch (error) {
    return error as ManifestError;
  }
  throw new Error('expected the manifest to be rejected');
}

const area = (extra: Record<string, unknown> = {}) => ({
  file: 'a.geojson',
  format: 'geojson',
  fields: { key: 'code', name: 'name' },
  ...extra,
});

describe('manifest validation', () => {
  it('accepts the shipped manifests and resolves paths against the manifest file', async () => {
    const loaded = await loadManifest('datasets/sample.json');
    expect(loaded.manifest.levels.countries?.[0]?.file).toBe(resolve('data/sample/world/ne_50m_countries.geojson'));
    // Parsed, not loaded: loading checks the files exist, and the bulk files live in ../shared (absent on a laptop).
    const bulkPath = resolve('datasets/bulk.json');
    const bulk = { manifest: parseManifest(JSON.parse(readFileSync(bulkPath, 'utf8')), dirname(bulkPath)) };
    expect(bulk.manifest.levels.countries?.[0]?.file).toBe(resolve('data/sample/world/ne_50m_countries.geojson'));
    const first = bulk.manifest.levels.addresses?.[0];
    expect(first && 'file' in first ? first.file : '').toBe(
      resolve(dirname(resolve('datasets/bulk.json')), '../../shared/data/bulk/addresses-nl-groningen.csv.gz'),
    );
    const sample = JSON.parse(readFileSync('datasets/sample.json', 'utf8'));
    const municipalities = parseManifest(sample, base).levels.municipalities?.[0];
    expect(municipalities?.parent).toMatchObject({
      by: 'code',
      lookup: { file: resolve(base, '../data/sample/nl/gemeente_provincie_2023_derived.csv') },
    });
  });

  it('defaults filters to none and the code parent field to local_identifier', () => {
    const m = parseManifest(
      { levels: { provinces: [area({ parent: { by: 'code', field: { value: 'NL' } } })] } },
      base,
    );
    expect(m.levels.provinces?.[0]?.filter).toEqual([]);
    expect(m.levels.provinces?.[0]?.parent).toEqual({
      by: 'code',
      field: { value: 'NL' },
      parentField: 'local_identifier',
    });
  });

  it('names the path of every problem', () => {
    const error = errorOf({
      levels: {
        countries: [{ file: 'c.geojson', format: 'shapefile', fields: { name: 'name' } }],
      },
    });
    expect(error).toBeInstanceOf(ManifestError);
    expect(error.issues.some((i) => i.startsWith('levels.countries.0.format'))).toBe(true);
    expect(error.issues.some((i) => i.startsWith('levels.countries.0.fields.key'))).toBe(true);
  });

  it('rejects unknown keys (typos) instead of ignoring them', () => {
    const error = errorOf({ levels: { countries: [area({ filters: [] })] } });
    expect(error.message).toMatch(/filters/);
    expect(errorOf({ levels: { town: [area()] } }).message).toMatch(/town/);
  });

  it('accepts names only in the languages the API shows, naming where to add one', () => {
    const withNames = (names: Record<string, string>) =>
      errorOf({ levels: { countries: [area({ fields: { key: 'iso', name: 'name', names } })] } });
    const error = withNames({ nl: 'name_nl', en: 'name_en' });
    expect(error.issues.some((i) => i.startsWith('levels.countries.0.fields.names'))).toBe(true);
    expect(error.message).toMatch(/core\/text\/languages\.ts \(nl, fr, de\)/);
  });

  it('rejects an empty manifest', () => {
    expect(errorOf({ levels: {} }).message).toMatch(/no source/);
  });

  it('rejects CSV for polygon levels and CSV addresses without coordinates', () => {
    expect(errorOf({ levels: { cities: [area({ format: 'csv' })] } }).message).toMatch(/need polygons/);
    const address = { file: 'a.csv', format: 'csv', fields: { street: 's', number: 'n' } };
    expect(errorOf({ levels: { addresses: [address] } }).message).toMatch(/need lon and lat/);
    const half = { ...address, fields: { street: 's', number: 'n', lon: 'x' } };
    expect(errorOf({ levels: { addresses: [half] } }).message).toMatch(/both lon and lat/);
  });

  it('rejects derived cities without addresses, parents for countries, and parents below the level', () => {
    expect(errorOf({ levels: { cities: [{ format: 'derived', from: 'addresses' }] } }).message).toMatch(
      /need an addresses source/,
    );
    expect(errorOf({ levels: { countries: [area({ parent: { by: 'spatial' } })] } }).message).toMatch(/no parent/);
    const below = area({ parent: { by: 'code', level: 'suburbs', field: 'x' } });
    expect(errorOf({ levels: { cities: [below] } }).message).toMatch(/must be above/);
  });

  it('validates filters and field specs', () => {
    expect(errorOf({ levels: { countries: [area({ filter: [{ property: 'x', like: 'y' }] })] } })).toBeInstanceOf(
      ManifestError,
    );
    expect(errorOf({ levels: { countries: [area({ fields: { key: { first: [] }, name: 'n' } })] } })).toBeInstanceOf(
      ManifestError,
    );
  });

  it('reports unreadable and non-JSON manifests clearly', async () => {
    await expect(loadManifest('/nonexistent/manifest.json')).rejects.toThrow(/cannot read manifest/);
    await expect(loadManifest('package-lock.json')).rejects.toThrow(ManifestError);
    await expect(loadManifest('README.md')).rejects.toThrow(/not JSON|cannot read/);
  });
});

describe('official formats', () => {
  it('bag-gpkg: a whole source with nothing to map, its fields filled by the format, at addresses and cities', () => {
    const raw = JSON.parse(readFileSync('datasets/bag.example.json', 'utf8'));
    const manifest = parseManifest(raw, resolve('datasets'));
    const addresses = manifest.levels.addresses?.[0];
    expect(addresses).toMatchObject({
      file: resolve('data/official/bag-light.gpkg'),
      format: 'bag-gpkg',
      fields: { street: 'openbare_ruimte_naam', sourceIds: { bag_nummeraanduiding: expect.any(String) } },
    });
    expect(manifest.levels.cities?.[0]).toMatchObject({ format: 'bag-gpkg', fields: { key: 'identificatie' } });
    const keep = { file: 'b.gpkg', format: 'bag-gpkg', statuses: { keep: ['Verblijfsobject in gebruik'] } };
    expect(parseManifest({ levels: { addresses: [keep] } }, base).levels.addresses?.[0]?.statuses).toEqual(
      keep.statuses,
    );
  });

  it('refuses bag-gpkg at another level, CSV options on it, and statuses on a mapped source', () => {
    const gpkg = { file: 'b.gpkg', format: 'bag-gpkg' };
    expect(errorOf({ levels: { provinces: [{ ...gpkg, fields: { key: 'a', name: 'b' } }] } }).issues).toContain(
      'levels.provinces.0.format: bag-gpkg feeds addresses and cities only',
    );
    expect(errorOf({ levels: { addresses: [{ ...gpkg, delimiter: ';' }] } }).issues).toContain(
      'levels.addresses.0.delimiter: not for bag-gpkg sources',
    );
    expect(errorOf({ levels: { countries: [area({ statuses: { keep: ['x'] } })] } }).issues).toContain(
      'levels.countries.0.statuses: only for official formats',
    );
  });

  it('best-csv and openaddresses: addresses only, BeST joined to its municipality by NIS code', () => {
    const raw = JSON.parse(readFileSync('datasets/best.example.json', 'utf8'));
    const bestSource = parseManifest(raw, resolve('datasets')).levels.addresses?.[0];
    expect(bestSource).toMatchObject({
      format: 'best-csv',
      fields: { sourceIds: { best_address: 'address_id' }, addition: 'box_number' },
      parent: { by: 'code', level: 'municipalities', field: 'municipality_id', parentField: 'local_identifier' },
    });
    const oa = { file: 'x.csv', format: 'openaddresses' };
    expect(parseManifest({ levels: { addresses: [oa] } }, base).levels.addresses?.[0]?.fields).toMatchObject({
      sourceId: { first: ['hash', 'id'] },
    });
    expect(errorOf({ levels: { addresses: [{ ...oa, statuses: { keep: ['x'] } }] } }).issues).toContain(
      'levels.addresses.0.statuses: openaddresses has no statuses',
    );
    expect(errorOf({ levels: { cities: [{ ...oa, fields: { key: 'a', name: 'b' } }] } }).issues).toContain(
      'levels.cities.0.format: openaddresses feeds addresses only',
    );
  });
});

describe('the attribution table kept with a generation', () => {
  it('one entry per credited source at its level; street names with their addresses; derived cities as the addresses', () => {
    const osm = { text: '© OpenStreetMap contributors, ODbL 1.0', countries: ['NL'] };
    const manifest = parseManifest(
      {
        levels: {
          countries: [
            {
              file: 'c.geojson',
              format: 'geojson',
              attribution: { text: 'Natural Earth' },
              fields: { key: 'k', name: 'n' },
            },
          ],
          cities: [
            { file: 'b.geojson', format: 'geojson', attribution: osm, fields: { key: 'k', name: 'n' } },
            { format: 'derived', from: 'addresses' },
          ],
          suburbs: [{ file: 's.geojson', format: 'geojson', fields: { key: 'k', name: 'n' } }],
          addresses: [
            {
              file: 'a.csv',
              format: 'csv',
              attribution: osm,
              fields: { street: 's', number: 'n', lon: 'x', lat: 'y' },
            },
            {
              file: 'be.csv',
              format: 'csv',
              attribution: { text: 'BeST Address / UrbIS (BOSA)', countries: ['BE'] },
              fields: { street: 's', number: 'n', lon: 'x', lat: 'y' },
              streetNames: {
                file: 'names.csv',
                language: 'nl',
                street: 's',
                names: { fr: 'f' },
                attribution: 'OSM names',
              },
            },
            { file: 'bag.gpkg', format: 'bag-gpkg' },
          ],
        },
      },
      base,
    );
    expect(attributionOf(manifest)).toEqual([
      { level: 'countries', text: 'Natural Earth' },
      { level: 'cities', countries: ['NL'], text: osm.text },
      { level: 'cities', countries: ['BE'], text: 'BeST Address / UrbIS (BOSA)' },
      // The BAG's own credit where the manifest names none.
      { level: 'cities', countries: ['NL'], text: 'BAG, Kadaster (CC0 1.0)' },
      { level: 'addresses', countries: ['NL'], text: osm.text },
      { level: 'addresses', countries: ['BE'], text: 'BeST Address / UrbIS (BOSA)' },
      { level: 'addresses', countries: ['NL'], text: 'BAG, Kadaster (CC0 1.0)' },
      { level: 'addresses', countries: ['BE'], text: 'OSM names' },
    ]);
  });

  it('refuses a credit without text and a country that is not an ISO code', () => {
    const source = (attribution: unknown) => ({
      levels: { countries: [{ file: 'c.geojson', format: 'geojson', attribution, fields: { key: 'k', name: 'n' } }] },
    });
    expect(() => parseManifest(source({ text: ' ' }), base)).toThrow(ManifestError);
    expect(() => parseManifest(source({ text: 'x', countries: ['nl'] }), base)).toThrow(ManifestError);
  });
});
