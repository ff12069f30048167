/**
 * Names in several languages, the pure parts: an area's names and primary name from per-language fields, the keys
 * its other names add, the street-names table joined to addresses by (scope, street key), what the streets index
 * carries from it, and the manifest keys that configure both.
 */
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../../../indexer/manifest/manifest.js';
import { type StreetNamesSpec, StreetNamesSchema } from '../../../../indexer/manifest/manifestSources.js';
import { StreetAccumulator } from '../../../../indexer/derived/streetDocuments.js';
import { applyStreetNames, StreetNameTable } from '../../../../indexer/transform/streetNames.js';
import { addressFromRecord } from '../../../../indexer/transform/address.js';
import { areaFromFeature, toAreaDoc, withTableNames } from '../../../../indexer/transform/area.js';
import type { AddressDoc } from '../../../../core/elasticsearch/documents.js';
import { boxPolygon } from '../../../support/geometry.js';

const square = boxPolygon(4.3, 50.8, 4.4, 50.9);
const belgianFields = {
  key: 'nis',
  names: { nl: 'name_nl', fr: 'name_fr', de: 'name_de' },
  primaryLanguage: { property: 'lang_code', map: { D: 'nl', DF: 'nl', F: 'fr', G: 'de' } as const },
  localIdentifier: 'nis',
};
const municipality = (props: Record<string, string>) => {
  const outcome = areaFromFeature('municipalities', props, square, belgianFields);
  if (!outcome.ok) throw new Error(outcome.detail);
  return outcome.value;
};

describe('area names per language', () => {
  it('takes the name in the primary language and keeps every name', () => {
    const liege = municipality({ nis: '62063', name_nl: 'Luik', name_fr: 'Liège', name_de: 'Lüttich', lang_code: 'F' });
    expect(liege.name).toBe('Liège');
    expect(liege.names).toEqual({ nl: 'Luik', fr: 'Liège', de: 'Lüttich' });
    const doc = toAreaDoc(liege);
    expect(doc).toMatchObject({ name: 'Liège', name_key: 'liege', local_identifier: '62063' });
    expect(doc.other_name_keys).toEqual(['luik', 'luttich']);
    expect(doc.other_name_tokens).toEqual(['luik', 'luttich']);
  });

  it('adds no other keys when every name normalises to the primary one', () => {
    const doc = toAreaDoc(
      municipality({
        nis: '21001',
        name_nl: 'Anderlecht',
        name_fr: 'Anderlecht',
        name_de: 'Anderlecht',
        lang_code: 'DF',
      }),
    );
    expect(doc.names).toEqual({ nl: 'Anderlecht', fr: 'Anderlecht', de: 'Anderlecht' });
    expect(doc).not.toHaveProperty('other_name_keys');
    expect(doc).not.toHaveProperty('other_name_tokens');
  });

  it('falls back to the first name found when the language is unknown, and rejects an area without any', () => {
    expect(municipality({ nis: '1', name_fr: 'Sint-Jans', name_de: 'X', lang_code: '?' }).name).toBe('Sint-Jans');
    const none = areaFromFeature('municipalities', { nis: '2', lang_code: 'D' }, square, belgianFields);
    expect(none).toMatchObject({ ok: false, reason: 'missing_name' });
  });

  it('leaves areas without names as they were', () => {
    const outcome = areaFromFeature('municipalities', { code: 'GM0503', name: 'Delft' }, square, {
      key: 'code',
      name: 'name',
    });
    expect(outcome.ok && Object.keys(toAreaDoc(outcome.value))).not.toContain('names');
    expect(outcome.ok && outcome.value).not.toHaveProperty('names');
  });
});

const streetSpec: StreetNamesSpec = StreetNamesSchema.parse({
  file: 'streets.csv',
  language: 'nl',
  street: 'street_nl',
  within: { column: 'nis', field: 'city', lookup: { file: 'm.csv', key: 'name_nl', value: 'nis' } },
  names: { fr: 'street_fr' },
  alternatives: { fr: 'street_fr_alternatives' },
});
const streetRows = [
  { nis: '21004', street_nl: 'Nieuwstraat', street_fr: 'Rue Neuve', street_fr_alternatives: '' },
  { nis: '21009', street_nl: 'Elizastraat', street_fr: 'Rue Élise', street_fr_alternatives: 'Rue Elise;Rue Elisa' },
  { nis: '21009', street_nl: 'Nieuwstraat', street_fr: 'Rue Neuve', street_fr_alternatives: '' },
  { nis: '21001', street_nl: 'Stroomstraat', street_fr: '', street_fr_alternatives: '' },
];
const municipalityRows = [
  { name_nl: 'Brussel', nis: '21004' },
  { name_nl: 'Elsene', nis: '21009' },
];
const table = new StreetNameTable(streetSpec, streetRows, municipalityRows);

function brusselsAddress(street: string, city: string): AddressDoc {
  const props = { street, number: '117', postcode: '1050', city, lon: '4.38224', lat: '50.81749' };
  const outcome = addressFromRecord(props, null, {
    street: 'street',
    number: 'number',
    postcode: 'postcode',
    city: 'city',
    lon: 'lon',
    lat: 'lat',
  });
  if (!outcome.ok) throw new Error(outcome.detail);
  const entry = table.join(props, outcome.value.street_key);
  if (entry) applyStreetNames(outcome.value, entry);
  return outcome.value;
}

describe('area names joined from a names table', () => {
  const spec = { file: 'provinces.csv', key: 'iso', field: 'iso_3166_2', names: { nl: 'nl', fr: 'fr' } };
  const table = new Map([['BE-BRU', { nl: 'Brussels Hoofdstedelijk Gewest', fr: 'Région de Bruxelles-Capitale' }]]);
  const province = (props: Record<string, string>, fields: Parameters<typeof areaFromFeature>[3]) => {
    const outcome = areaFromFeature('provinces', props, square, fields);
    if (!outcome.ok) throw new Error(outcome.detail);
    return withTableNames(outcome.value, props, spec, table);
  };

  it("gives the area its row's names, keeps the source's name shown, and its other names searchable", () => {
    const fields = { key: 'iso_3166_2', name: 'name', localIdentifier: 'iso_3166_2' };
    const brussels = province({ iso_3166_2: 'BE-BRU', name: 'Brussels' }, fields);
    expect(brussels.name).toBe('Brussels');
    expect(brussels.names).toEqual({ nl: 'Brussels Hoofdstedelijk Gewest', fr: 'Région de Bruxelles-Capitale' });
    expect(toAreaDoc(brussels).other_name_keys).toEqual([
      'brussels hoofdstedelijk gewest',
      'region de bruxelles capitale',
    ]);
  });

  it('keeps a language the source names itself, and leaves an area the table does not know as it was', () => {
    const fields = { key: 'iso_3166_2', name: 'name', names: { nl: 'name_nl' } };
    const own = province({ iso_3166_2: 'BE-BRU', name: 'Brussels', name_nl: 'Brussel' }, fields);
    expect(own.names).toEqual({ nl: 'Brussel', fr: 'Région de Bruxelles-Capitale' });
    const unknown = province({ iso_3166_2: 'LU-D', name: 'Diekirch' }, { key: 'iso_3166_2', name: 'name' });
    expect(unknown).not.toHaveProperty('names');
  });
});

describe('street names joined from a table', () => {
  it('joins by the scope (city name -> NIS through the lookup, any case) and the street key', () => {
    const elise = brusselsAddress('ELIZASTRAAT', 'elsene');
    expect(elise).toMatchObject({
      streetname: 'ELIZASTRAAT',
      street_names: { nl: 'Elizastraat', fr: 'Rue Élise' },
      // 'Rue Elise' normalises like 'Rue Élise': one key; 'Rue Elisa' is another spelling.
      other_street_keys: ['rueelise', 'rueelisa'],
      other_street_text: ['rue elise', 'rue elisa'],
    });
    expect(brusselsAddress('Nieuwstraat', 'Brussel').street_names).toEqual({ nl: 'Nieuwstraat', fr: 'Rue Neuve' });
  });

  it('leaves an address alone when its scope or street has no row', () => {
    expect(brusselsAddress('Elizastraat', 'Brussel')).not.toHaveProperty('street_names');
    expect(brusselsAddress('Onbekendestraat', 'Elsene')).not.toHaveProperty('street_names');
    expect(brusselsAddress('Nieuwstraat', 'Delft')).not.toHaveProperty('street_names');
    expect(table.size).toBe(4);
  });

  it('keeps a row without another name as names only, with no other keys', () => {
    const spec = { ...streetSpec, within: { column: 'nis', field: { value: '21001' } } };
    const entry = new StreetNameTable(spec, streetRows).join({}, 'stroomstraat');
    expect(entry).toEqual({ street_names: { nl: 'Stroomstraat' }, other_street_keys: [], other_street_text: [] });
  });

  it('carries the names, other keys and word tails into the streets index', () => {
    const streets = new StreetAccumulator();
    streets.add(brusselsAddress('Elizastraat', 'Elsene'));
    const [doc] = [...streets.documents()];
    expect(doc).toMatchObject({
      streetname: 'Elizastraat',
      street_names: { nl: 'Elizastraat', fr: 'Rue Élise' },
      other_street_keys: ['rueelise', 'rueelisa'],
      other_street_words: ['rue elise', 'elise', 'rue elisa', 'elisa'],
    });
  });
});

describe('manifest keys for names', () => {
  const base = '/data/manifests';
  const addresses = (streetNames: unknown) => ({
    levels: {
      addresses: [
        {
          file: 'a.csv',
          format: 'csv',
          fields: { street: 's', number: 'n', lon: 'x', lat: 'y' },
          streetNames,
        },
      ],
    },
  });

  it('resolves the street-names table and its lookup against the manifest, with a default separator', () => {
    const m = parseManifest(addresses({ ...streetSpec, separator: undefined }), base);
    const spec = m.levels.addresses?.[0]?.streetNames;
    expect(spec?.file).toBe('/data/manifests/streets.csv');
    expect(spec?.within?.lookup?.file).toBe('/data/manifests/m.csv');
    expect(spec?.separator).toBe(';');
  });

  it('rejects language codes that are not ISO 639, and an area with neither name nor names', () => {
    expect(() => parseManifest(addresses({ ...streetSpec, language: 'Dutch' }), base)).toThrow(/language/);
    expect(() =>
      parseManifest({ levels: { countries: [{ file: 'c.geojson', format: 'geojson', fields: { key: 'k' } }] } }, base),
    ).toThrow(/map name, or names/);
  });
});
