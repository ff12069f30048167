/**
 * The ground the rest stands on: a real Elasticsearch is there, and boundaries are stored and found the way
 * the mappings say, on this distribution as on a full one.
 */
import { readFileSync } from 'node:fs';
import type { Feature, MultiPolygon } from 'geojson';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AreaDoc } from '../../../../core/elasticsearch/documents.js';
import { indexDefinition } from '../../../../core/elasticsearch/mappings.js';
import { geometryContains, polygonsOf } from '../../../../src/features/reverse/containment.js';
import { envelopeContainsClause } from '../../../../src/features/reverse/reverseBodies.js';
import { createTestClient, uniqueIndexPrefix } from '../../../support/elasticsearch.js';

const client = createTestClient();
const index = `${uniqueIndexPrefix('geo')}areas`;

const gemeenten = JSON.parse(
  readFileSync(new URL('../../../../data/sample/nl/cbs_gemeenten_2023.geojson', import.meta.url), 'utf8'),
) as { features: Feature<MultiPolygon>[] };
const delft = gemeenten.features.find((f) => f.properties?.gemeentecode === 'GM0503');

beforeAll(async () => {
  await client.indices.create({ index, ...indexDefinition('areas') });
});

afterAll(async () => {
  await client.indices.delete({ index }, { ignore: [404] });
  await client.close();
});

describe('Elasticsearch under test', () => {
  it('is a real node of a supported version', async () => {
    const version = inject('elasticsearchVersion');
    console.log(`tests run against ${inject('elasticsearchKind')} Elasticsearch ${version}`);
    expect(version).toMatch(/^(8\.19|9)\.\d+\.\d+/);
    const health = await client.cluster.health();
    expect(['green', 'yellow']).toContain(health.status);
  });
});

describe('boundary storage (geometry in _source, centroid geo_point, envelope)', () => {
  it('stores a real MultiPolygon and finds it for a point inside, not for one outside', async () => {
    expect(delft).toBeDefined();
    const geometry = delft!.geometry;
    const coords =
      geometry.type === 'MultiPolygon' ? geometry.coordinates.flat(2) : (geometry as any).coordinates.flat(1);
    const lons = coords.map((c: number[]) => c[0]!);
    const lats = coords.map((c: number[]) => c[1]!);
    const doc: AreaDoc = {
      id: 'gm0503',
      level: 'municipality',
      source_key: 'municipality:GM0503',
      name: 'Delft',
      name_key: 'delft',
      name_tokens: ['delft'],
      local_identifier: 'GM0503',
      country_code: 'NL',
      country_code3: 'NLD',
      parent_id: '',
      country_id: '',
      province_id: '',
      municipality_id: '',
      city_id: '',
      centroid: { lon: 4.36, lat: 52.0 },
      bbox: {
        min_lon: Math.min(...lons),
        min_lat: Math.min(...lats),
        max_lon: Math.max(...lons),
        max_lat: Math.max(...lats),
      },
      geometry: geometry,
    };
    await client.index({ index, id: doc.id, document: doc, refresh: true });

    // What the product sends: the envelope filter of reverse geocoding in Elasticsearch, then its exact
    // point-in-polygon test in TypeScript.
    const containing = async (lon: number, lat: number) => {
      const res = await client.search<AreaDoc>({
        index,
        query: { bool: { filter: envelopeContainsClause({ lon, lat }) } },
      });
      return res.hits.hits
        .map((h) => h._source!)
        .filter((area) => geometryContains(polygonsOf(area.geometry), lon, lat))
        .map((area) => area.name);
    };
    expect(await containing(4.3734803, 51.9953593)).toEqual(['Delft']); // Mekelweg 8
    expect(await containing(4.4777, 51.9244)).toEqual([]); // Rotterdam
    const stored = await client.get<AreaDoc>({ index, id: 'gm0503' });
    expect(stored._source?.geometry).toEqual(geometry);
  });

  // patches/@elastic+transport: with a getter written in the result's literal, each request's query, body and answer
  // outlived the API's young-generation collections and were promoted (docs/bench-log/2026-11-24-0700-allocation-and-scavenges.md).
  it('answers through the patched transport: one shared warnings getter, no closure per request', async () => {
    const results = await Promise.all([1, 2].map(() => client.cluster.health({}, { meta: true })));
    const getters = results.map((result) => Object.getOwnPropertyDescriptor(result, 'warnings')?.get);
    expect(getters[0]).toBeTypeOf('function');
    expect(getters[0]).toBe(getters[1]);
    expect(results[0]!.warnings).toBeNull();
  });

  // Only the launcher's distribution lacks the mapper; against another a skip shows as a skip, not a pass.
  it.runIf(inject('elasticsearchKind') === 'local')(
    'documents why: this distribution has no geo_shape mapper',
    async () => {
      const probe = `${index}-probe`;
      const attempt = client.indices.create({
        index: probe,
        mappings: { properties: { g: { type: 'geo_shape' } } },
      });
      await expect(attempt).rejects.toThrow(/geo_shape/);
    },
  );
});
