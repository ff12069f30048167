import { describe, expect, it } from 'vitest';
import type { AddressDoc } from '../../../../core/elasticsearch/documents.js';
import { normaliseText } from '../../../../core/text/normalise.js';
import {
  replicaSourceRow,
  replicaCity,
  replicaCityKey,
  replicaDocument,
  replicaId,
  scalePrefix,
} from '../../../../bench/support/scaleReplicas.js';

const address = {
  id: '0b6f2b0e-6c3a-5d2e-9a51-3c7f1e2d4b60',
  source_key: 'addresses:stationsweg|12|a|9711ab|groningen',
  streetname: 'Stationsweg',
  street_key: 'stationsweg',
  number: '12',
  postcode: '9711AB',
  city: 'Groningen',
  city_key: 'groningen',
  location: { lat: 53.21, lon: 6.56 },
  city_id: 'c1',
} as unknown as AddressDoc;

describe('synthetic replicas of the scale benchmark', () => {
  it('names each copy visibly synthetic, and the name normalises to the key the replica is indexed under', () => {
    for (const city of ['Groningen', "'s-Gravenhage", 'Bergen (NH)', 'Sint-Jans-Molenbeek', 'Liège', '']) {
      for (const copy of [2, 3, 4]) {
        expect(replicaCity(city, copy)).toBe(`${city}~${copy}`);
        expect(replicaCityKey(normaliseText(city), copy)).toBe(normaliseText(replicaCity(city, copy)));
      }
    }
  });

  it('keeps copy 1 as the data itself', () => {
    expect(replicaDocument(address, 1)).toBe(address);
  });

  it('gives each copy a new id, source key and city, and keeps the street, number, postcode and place', () => {
    const copy2 = replicaDocument(address, 2);
    expect(copy2).toMatchObject({
      city: 'Groningen~2',
      city_key: 'groningen 2',
      source_key: `${address.source_key}~2`,
      streetname: 'Stationsweg',
      number: '12',
      postcode: '9711AB',
      location: address.location,
      city_id: 'c1',
    });
    expect(copy2.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    const ids = new Set([address.id, ...[2, 3, 4].map((c) => replicaDocument(address, c).id)]);
    expect(ids.size).toBe(4);
    // Stable: a rebuilt bench index has the same ids, so seeded query draws repeat.
    expect(replicaId(address.id, 2)).toBe(copy2.id);
  });

  it('keeps every size under its own bench prefix', () => {
    const prefixes = ['bulk', 'delft'].flatMap((dataset) => [1, 2, 4].map((size) => scalePrefix(dataset, size)));
    expect(new Set(prefixes).size).toBe(6);
    for (const prefix of prefixes) expect(prefix).toMatch(/^bench-scale-/);
  });

  it('writes the source rows of a copy for the real indexer: new source id, the replica city, the rest as read', () => {
    const row = {
      id: 'nl-ze-11826',
      street: 'Hoogerwerfsweg "De Tong"',
      number: '1',
      postcode: '4311NP',
      city: 'Bruinisse',
    };
    const columns = { sourceId: 'id', city: 'city' };
    expect(replicaSourceRow(row, 1, columns)).toBe(row);
    expect(replicaSourceRow(row, 3, columns)).toEqual({ ...row, id: 'nl-ze-11826~3', city: 'Bruinisse~3' });
  });
});
