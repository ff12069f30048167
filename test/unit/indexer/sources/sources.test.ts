import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { csvRecord, parseCsvRecord, readCsv, readCsvHeader, readCsvTable } from '../../../../indexer/sources/csv.js';
import { readGeoJson, readGeoJsonSeq, SourceFileError } from '../../../../indexer/sources/geojson.js';
import type { ReadProgress, ReadStats, SourceItem } from '../../../../indexer/sources/types.js';

const dir = mkdtempSync(join(tmpdir(), 'indexer-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(gen: AsyncIterable<SourceItem>): Promise<SourceItem[]> {
  const out: SourceItem[] = [];
  for await (const item of gen) out.push(item);
  return out;
}

describe('CSV source', () => {
  it('writes CSV records the indexer reads back as they were (quotes, commas, line breaks)', () => {
    const header = ['id', 'street', 'city'];
    for (const values of [
      ['a~2', 'Hoogerwerfsweg "De Tong"', 'Bruinisse~2'],
      ['b~2', 'Rue de la Loi, Wetstraat', 'Brussel~2'],
      ['c~2', 'two\nlines', ''],
      ['d~2', 'plain', "'s-Gravenhage~2"],
    ]) {
      const parsed = parseCsvRecord(Buffer.from(csvRecord(header)), Buffer.from(csvRecord(values)));
      expect(parsed).toEqual(Object.fromEntries(header.map((h, i) => [h, values[i]])));
    }
  });

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

describe('damaged CSV input', () => {
  const header = 'id,street,city\n';
  const rows = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `${from + i},Straat ${from + i},Delft\n`).join('');

  it('a quote never closed: one unreadable item at the line it opened, covering every line to the end', async () => {
    const file = join(dir, 'quote.csv');
    writeFileSync(file, `${header}${rows(1, 3)}4,"Straat 4,Delft\n${rows(5, 3)}`);
    const stats = { encoding: '' } as ReadStats;
    const items = await collect(readCsv(file, { stats }));
    expect(items.filter((i) => !i.error).map((i) => i.position)).toEqual([2, 3, 4]);
    const lost = items.filter((i) => i.error);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ position: 5, lines: 4 });
    expect(lost[0]?.error).toMatch(/quote opened in the record at line 5 is never closed: lines 5-8 \(4 lines\)/);
    expect(stats).toEqual({ encoding: 'utf-8', lines: 8 });
  });

  it('a quoted field spanning lines is one record carrying its first line and line count (CRLF counted once)', async () => {
    const file = join(dir, 'multi.csv');
    writeFileSync(file, 'id,street,city\r\n1,"Lange\r\nStraat",Delft\r\n2,Korte Straat,Delft\r\n');
    const items = await collect(readCsv(file));
    expect(items.map((i) => [i.position, i.lines ?? 1, i.props.id])).toEqual([
      [2, 2, '1'],
      [4, 1, '2'],
    ]);
  });

  it('a BOM and CRLF line ends read like plain LF UTF-8', async () => {
    const plain = join(dir, 'plain.csv');
    const bom = join(dir, 'bom.csv');
    const text = `${header}${rows(1, 3)}`;
    writeFileSync(plain, text);
    writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.replaceAll('\n', '\r\n'))]));
    const read = async (f: string) => (await collect(readCsv(f))).map((i) => [i.position, i.props, i.error]);
    expect(await read(bom)).toEqual(await read(plain));
    expect(await readCsvHeader(bom)).toEqual(['id', 'street', 'city']);
  });

  it('a header with spaces round its names: the column check and the load read the same names', async () => {
    const file = join(dir, 'spaced.csv');
    writeFileSync(file, Buffer.from(`\uFEFF id , name_fr,\tname_nl \n1, Bruxelles ,Brussel\n`));
    expect(await readCsvHeader(file)).toEqual(['id', 'name_fr', 'name_nl']);
    const items = await collect(readCsv(file));
    // The names as the check read them are the keys of every record: name_fr is not lost as " name_fr".
    expect(items.map((i) => i.props)).toEqual([{ id: '1', name_fr: ' Bruxelles ', name_nl: 'Brussel' }]);
  });

  it('Latin-1 bytes are an error naming the file, line and byte, unless the source names the encoding', async () => {
    const file = join(dir, 'latin1.csv');
    writeFileSync(file, Buffer.from(`${header}1,Markt,Delft\n2,Isaäc da Costalaan,Delft\n`, 'latin1'));
    const error = await collect(readCsv(file)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceFileError);
    expect((error as Error).message).toMatch(/latin1\.csv: not valid UTF-8 at line 3, byte offset 34 \(0xe4 /);
    expect((error as Error).message).toMatch(/"encoding": "windows-1252"/);
    const items = await collect(readCsv(file, { encoding: 'windows-1252' }));
    expect(items.map((i) => i.props.street)).toEqual(['Markt', 'Isaäc da Costalaan']);
  });

  it('a UTF-8 character split across read chunks is not an error', async () => {
    const file = join(dir, 'long.csv.gz');
    // Long enough for many gunzip chunks, with multi-byte characters at every offset.
    writeFileSync(
      file,
      gzipSync(`${header}${Array.from({ length: 5000 }, (_, i) => `${i},Isaäc €${i},Delft\n`).join('')}`),
    );
    const items = await collect(readCsv(file));
    expect(items).toHaveLength(5000);
    expect(items.every((i) => !i.error)).toBe(true);
  });

  it('a truncated .gz names the file, how far it got and how many records were read', async () => {
    const file = join(dir, 'cut.csv.gz');
    const whole = gzipSync(`${header}${rows(1, 5000)}`);
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    const seen: SourceItem[] = [];
    const error = await (async () => {
      for await (const item of readCsv(file)) seen.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceFileError);
    const message = (error as Error).message;
    expect(message).toContain(file);
    expect(message).toMatch(/gzip data truncated or damaged \(unexpected end of file\)/);
    expect(message).toMatch(/after \d+ of \d+ bytes of the file, \d+ bytes decompressed, \d+ lines; \d+ records read/);
    expect(Number(/; (\d+) records read/.exec(message)?.[1])).toBe(seen.length);
  });
});
