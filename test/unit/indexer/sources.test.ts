import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsv, readCsvTable } from '../../../indexer/sources/csv.js';
import { readGeoJson, readGeoJsonSeq, SourceFileError } from '../../../indexer/sources/geojson.js';
import type { ReadProgress, SourceItem } from '../../../indexer/sources/types.js';

const dir = mkdtempSync(join(tmpdir(), 'indexer-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(gen: AsyncIterable<SourceItem>): Promise<SourceItem[]> {
  const out: SourceItem[] = [];
  for await (const item of gen) out.push(item);
  return out;
}

describe('CSV source', () => {
  it('streams gzip CSV with line numbers, reports bytes read, and turns bad rows into items with an error', async () => {
    const text = 'a,b\n1,"x, y"\n2,z,extra\n\n3,w\n';
    const file = join(dir, 't.csv.gz');
    writeFileSync(file, gzipSync(text));
    let progress: ReadProgress | undefined;
    const items = await collect(readCsv(file, { progress: (p) => (progress = p) }));
    const good = items.filter((i) => !i.error);
    expect(good.map((i) => [i.position, i.props])).toEqual([
      [2, { a: '1', b: 'x, y' }],
      [5, { a: '3', b: 'w' }],
    ]);
    const bad = items.filter((i) => i.error);
    expect(bad).toHaveLength(1);
    expect(bad[0]?.position).toBe(3);
    expect(progress?.bytesRead).toBe(progress?.totalBytes);
  });

  it('reads small lookup tables with another delimiter', async () => {
    const file = join(dir, 't.csv');
    writeFileSync(file, 'k;v\nGM1;PV1\n');
    expect(await readCsvTable(file, { delimiter: ';' })).toEqual([{ k: 'GM1', v: 'PV1' }]);
  });
});

describe('GeoJSON sources', () => {
  it('reads a FeatureCollection with feature numbers, and refuses anything else', async () => {
    const file = join(dir, 'fc.geojson');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', properties: { n: 1 }, geometry: null },
          { type: 'Nope' },
          { type: 'Feature', properties: null, geometry: { type: 'Point', coordinates: [1, 2] } },
        ],
      }),
    );
    const items = await collect(readGeoJson(file));
    expect(items.map((i) => [i.position, i.props, i.error ?? null])).toEqual([
      [1, { n: 1 }, null],
      [2, {}, 'not a GeoJSON Feature'],
      [3, {}, null],
    ]);
    const notFc = join(dir, 'not.geojson');
    writeFileSync(notFc, JSON.stringify({ type: 'Feature' }));
    await expect(collect(readGeoJson(notFc))).rejects.toThrow(SourceFileError);
    const notJson = join(dir, 'bad.geojson');
    writeFileSync(notJson, '{');
    await expect(collect(readGeoJson(notJson))).rejects.toThrow(/not JSON/);
  });

  it('streams GeoJSONSeq with or without record separators, line by line', async () => {
    const file = join(dir, 'seq.geojsonseq.gz');
    const f = (n: number) => JSON.stringify({ type: 'Feature', properties: { n }, geometry: null });
    writeFileSync(file, gzipSync(`${f(1)}\n\x1e${f(2)}\n\n{broken\n${f(3)}\n`));
    const items = await collect(readGeoJsonSeq(file));
    expect(items.map((i) => [i.position, i.props.n ?? null, i.error ? 'error' : null])).toEqual([
      [1, 1, null],
      [2, 2, null],
      [4, null, 'error'],
      [5, 3, null],
    ]);
  });
});
