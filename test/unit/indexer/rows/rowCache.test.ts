/**
 * The row cache's pure parts (indexer/rows/): CSV records split raw as csv-parse reads them, the cache written and
 * read back (a byte changed anywhere reads as no cache), rows taken by digest once each, the temporary files of
 * writers that are gone removed, and the live addresses' digests taken from it (a merged address keeps its winning
 * row's digest, as Elasticsearch keeps the highest version).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsvRecord, parseCsvRecords } from '../../../../indexer/sources/csv.js';
import { digestBytes, RawCsvSplitter, splitRawCsv } from '../../../../indexer/rows/rawCsvRecords.js';
import { RowCacheBuilder } from '../../../../indexer/rows/rowCacheBuilder.js';
import { pruneRowCaches, readRowCache, rowCachePath, writeRowCache } from '../../../../indexer/rows/rowCacheFile.js';
import { liveAddressDigests } from '../../../../indexer/update/replayPlan.js';
import { StreetAccumulator } from '../../../../indexer/derived/streetDocuments.js';

const text = (s: string) => Buffer.from(s, 'utf8');

function split(csv: string, chunk = 7) {
  const out: { line: number; lines: number; text: string; header: string }[] = [];
  const splitter = new RawCsvSplitter((line, lines, buf, start, end, _hi, _lo, header) =>
    out.push({ line, lines, text: buf.subarray(start, end).toString(), header: header.toString() }),
  );
  // In small chunks: a record split across chunks reads as one.
  const bytes = text(csv);
  for (let i = 0; i < bytes.length; i += chunk) splitter.push(bytes.subarray(i, i + chunk));
  return { records: out, scan: splitter.end() };
}

describe('raw CSV records', () => {
  it('splits records at newlines outside quotes, skips blank lines and keeps the header apart', () => {
    const csv = 'id,street,number\r\n1,Markt,1\r\n\r\n2,"Lange, Haven",3\n3,"Oude\nDelft",4\n4,Rue ""X"",5';
    const { records, scan } = split(csv);
    expect(scan.header.toString()).toBe('id,street,number');
    expect(records.map(({ line, lines, text }) => ({ line, lines, text }))).toEqual([
      { line: 2, lines: 1, text: '1,Markt,1' },
      { line: 4, lines: 1, text: '2,"Lange, Haven",3' },
      { line: 5, lines: 2, text: '3,"Oude\nDelft",4' },
      { line: 7, lines: 1, text: '4,Rue ""X"",5' },
    ]);
    expect(records.every((r) => r.header === 'id,street,number')).toBe(true);
    expect(scan).toMatchObject({ count: 4, physicalLines: 7, unclosedQuote: false });
  });

  it('each record parses under its header as the streaming read parses it', () => {
    const { records, scan } = split('\uFEFFid, street\n2,"Lange, Haven"\n');
    expect(parseCsvRecord(scan.header, text(records[0]!.text))).toEqual({ id: '2', street: 'Lange, Haven' });
    expect(parseCsvRecord(scan.header, text('1,2,3'))).toBeUndefined();
  });

  it('records parsed in one batch read as each record alone, a malformed one among them included', () => {
    const header = text('\uFEFFid; street;number');
    const records = ['1;Markt;1', '2;"Lange; Haven";3', '3;"Oude\r\nDelft";"4"', '5;"Rue ""Y""";6'].map(text);
    const alone = records.map((r) => parseCsvRecord(header, r, ';'));
    expect(alone.every((r) => r !== undefined)).toBe(true);
    expect(parseCsvRecords(header, records, ';')).toEqual(alone);
    expect(alone[2]).toEqual({ id: '3', street: 'Oude\r\nDelft', number: '4' });
    // A column too many, a quote inside an unquoted field, too few: undefined each, the rows around them as before.
    const mixed = [records[0]!, text('9;x;y;z'), records[1]!, text('4;Rue ""X"";5'), text('8;x'), records[3]!];
    expect(parseCsvRecords(header, mixed, ';')).toEqual([
      alone[0],
      undefined,
      alone[1],
      undefined,
      undefined,
      alone[3],
    ]);
    expect(parseCsvRecords(header, [], ';')).toEqual([]);
  });

  it('says when a quote is never closed', () => {
    expect(splitRawCsv(text('id,street\n1,"Markt\n2,Haven\n'), () => {}).unclosedQuote).toBe(true);
  });

  it('digests bytes into 64 bits that tell rows apart', () => {
    const of = (s: string) => ({ ...digestBytes(text(s)) });
    expect(of('1,Markt,1')).toEqual(of('1,Markt,1'));
    expect(of('1,Markt,1')).not.toEqual(of('1,Markt,2'));
  });
});

const ID_A = '0a1b2c3d-0000-5000-8000-00000000000a';
const ID_B = '0a1b2c3d-0000-5000-8000-00000000000b';

function cacheOf(rows: [hi: number, id: string, digest: string, version: number][]): RowCacheBuilder {
  const builder = new RowCacheBuilder();
  const source = builder.beginSource('/data/a.csv', 1, 2);
  for (const [hi, id, digest, version] of rows) {
    const data = {
      group: '["g"]',
      postcode: '["2611AA","2611aa"]',
      suburb: '',
      building: '',
      city: 'c1',
      lat: 52,
      lon: 4,
    };
    const r = builder.addRecord(source, hi, 7, data, false);
    builder.setDocument(r, id, digest, version);
  }
  return builder;
}

describe('row cache', () => {
  it('reads back what was written, each row taken once by its digest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rows-'));
    const builder = cacheOf([
      [10, ID_A, '00000000000000aa', 5],
      [10, ID_A, '00000000000000aa', 6],
      [11, ID_B, '00000000000000bb', 7],
    ]);
    await writeRowCache(dir, { prefix: 'p-', generation: '20261126000000000', context: 'c' }, builder);
    const read = await readRowCache(dir, 'p-', '20261126000000000');
    if ('missing' in read) throw new Error(read.missing);
    expect(read.head.context).toBe('c');
    const { cache } = read;
    expect(cache.size).toBe(3);
    expect([cache.take(10, 7), cache.take(10, 7), cache.take(10, 7), cache.take(12, 7)]).toEqual([0, 1, -1, -1]);
    expect(cache.docId(2)).toBe(ID_B);
    expect(cache.docDigest(2)).toBe('00000000000000bb');
    expect(cache.string(2, 'postcode')).toBe('["2611AA","2611aa"]');
    expect(await readRowCache(dir, 'p-', '20261126000000001')).toEqual({
      missing: expect.stringMatching(/no row cache/),
    });
    await pruneRowCaches(dir, 'p-', []);
    expect(await readRowCache(dir, 'p-', '20261126000000000')).toEqual({ missing: expect.any(String) });
  });

  it('keeps strings and memo entries of more than a write piece, and reads a damaged file as no cache', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rows-'));
    const builder = new RowCacheBuilder();
    const source = builder.beginSource('/data/a.csv', 1, 2);
    // 40,000 distinct streets (about 2.5 MB of strings), with quotes, accents and a character outside the BMP.
    const group = (i: number) => JSON.stringify([`Rue de l'Église "${i}" \u{1F3E0}`, `rue de l eglise ${i}`]);
    for (let i = 0; i < 40_000; i++) {
      const data = { group: group(i), postcode: '["1000"]', suburb: '', building: '', city: 'c1', lat: 50, lon: 4 };
      builder.setDocument(builder.addRecord(source, i, 7, data, false), ID_A, '00000000000000aa', i);
    }
    const big = new Uint8Array(3 << 20).map((_, i) => i % 251);
    const memo = new Map([
      ['area:one', big],
      ['area:two', Uint8Array.of(1, 2, 3)],
      ['empty', new Uint8Array(0)],
    ]);
    const generation = '20261127000000000';
    const path = await writeRowCache(dir, { prefix: 'p-', generation, context: 'c' }, builder, memo);
    const read = await readRowCache(dir, 'p-', generation);
    if ('missing' in read) throw new Error(read.missing);
    expect(read.cache.size).toBe(40_000);
    expect(read.cache.string(39_999, 'group')).toBe(group(39_999));
    expect(read.cache.string(12_345, 'group')).toBe(group(12_345));
    expect(read.cache.take(39_999, 7)).toBe(39_999);
    expect([...read.memo.keys()]).toEqual(['area:one', 'area:two', 'empty']);
    expect(Buffer.from(read.memo.get('area:one')!).equals(Buffer.from(big))).toBe(true);
    expect([...read.memo.get('area:two')!]).toEqual([1, 2, 3]);

    const whole = readFileSync(path);
    truncateSync(path, whole.length - 1);
    expect(await readRowCache(dir, 'p-', generation)).toEqual({
      missing: expect.stringMatching(/truncated|memo|checksum/),
    });
    writeFileSync(path, Buffer.concat([Buffer.from('geocoder-rows 3 12\n'), whole.subarray(19)]));
    expect(await readRowCache(dir, 'p-', generation)).toEqual({
      missing: expect.stringMatching(/not a row cache of format/),
    });
    const strings = whole.indexOf('["[');
    writeFileSync(path, Buffer.concat([whole.subarray(0, strings), Buffer.from('{'), whole.subarray(strings + 1)]));
    expect(await readRowCache(dir, 'p-', generation)).toEqual({ missing: expect.stringMatching(/unreadable/) });

    // The content changed, the framing intact: still valid JSON, columns of the same length. No cache all the same.
    const changed = (from: Buffer, to: Buffer) => {
      const at = whole.indexOf(from);
      expect(at).toBeGreaterThan(0);
      const copy = Buffer.from(whole);
      to.copy(copy, at);
      writeFileSync(path, copy);
    };
    const checksum = { missing: expect.stringMatching(/checksum mismatch/) };
    // A street name edited: "Rue de l'Église" -> "Rue du l'Église" in the interned strings.
    changed(Buffer.from("Rue de l'"), Buffer.from("Rue du l'"));
    expect(await readRowCache(dir, 'p-', generation)).toEqual(checksum);
    // A latitude's digit changed: the first row's 50 -> 51 in the lat column.
    const lat = (n: number) => {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(n);
      return b;
    };
    changed(lat(50), lat(51));
    expect(await readRowCache(dir, 'p-', generation)).toEqual(checksum);
    // A row count in the head edited by as many bytes (the file still parses): its columns would be misread.
    changed(Buffer.from('"rows":40000'), Buffer.from('"rows":40001'));
    expect(await readRowCache(dir, 'p-', generation)).toEqual({ missing: expect.stringMatching(/checksum|truncated/) });
    // A memo entry's bytes.
    changed(Buffer.from([1, 2, 3]), Buffer.from([1, 2, 4]));
    expect(await readRowCache(dir, 'p-', generation)).toEqual(checksum);
    writeFileSync(path, whole);
    expect(await readRowCache(dir, 'p-', generation)).toMatchObject({ head: { generation } });
  });

  it('removes the temporary file a killed writer left, never one a running writer is writing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rows-'));
    // A process of this host that has ended: its pid is no running process.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const partial = (generation: string, writer: string) => `${rowCachePath('', 'p-', generation)}.${writer}.partial`;
    const names = {
      killed: partial('20261127000000003', `${hostname()}.${gone}`),
      killedBeforeHostNames: partial('20261127000000004', String(gone)),
      running: partial('20261127000000005', `${hostname()}.${process.pid}`),
      otherHost: partial('20261127000000006', 'other-host.example.4242'),
      otherHostStale: partial('20261127000000007', 'other-host.example.4243'),
    };
    for (const name of Object.values(names)) writeFileSync(join(dir, name), 'half a cache');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(join(dir, names.otherHostStale), twoHoursAgo, twoHoursAgo);
    await writeRowCache(dir, { prefix: 'p-', generation: '20261127000000008', context: 'c' }, cacheOf([]));
    expect(readdirSync(dir).sort()).toEqual(['p-20261127000000008.rows', names.running, names.otherHost].sort());

    // A prune (every run's end) removes them too.
    writeFileSync(join(dir, names.killed), 'half a cache');
    await pruneRowCaches(dir, 'p-', ['20261127000000008']);
    expect(readdirSync(dir).sort()).toEqual(['p-20261127000000008.rows', names.running, names.otherHost].sort());
  });

  it("writes an update's replayed rows as the live rows they replay, with their new versions", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rows-'));
    const liveGeneration = '20261127000000001';
    await writeRowCache(
      dir,
      { prefix: 'p-', generation: liveGeneration, context: 'c' },
      cacheOf([
        [10, ID_A, '00000000000000aa', 5],
        [11, ID_B, '00000000000000bb', 6],
      ]),
    );
    const live = await readRowCache(dir, 'p-', liveGeneration);
    if ('missing' in live) throw new Error(live.missing);
    // The new snapshot: the live row 1, a row read the full way, the live row 0.
    const builder = new RowCacheBuilder(live.cache);
    builder.reserve(3, 1);
    const source = builder.beginSource('/data/a.csv', 1, 2);
    expect(builder.replayRecord(source, 1, 16)).toBe(0);
    const data = {
      group: '["h"]',
      postcode: '["2612AB","2612ab"]',
      suburb: 's',
      building: '',
      city: 'c2',
      lat: 51,
      lon: 5,
    };
    const own = builder.addRecord(source, 12, 8, data, true);
    builder.setDocument(own, ID_A, '00000000000000cc', 17);
    expect(builder.replayRecord(source, 0, 18)).toBe(2);
    const generation = '20261127000000002';
    await writeRowCache(dir, { prefix: 'p-', generation, context: 'c' }, builder);
    const read = await readRowCache(dir, 'p-', generation);
    if ('missing' in read) throw new Error(read.missing);
    const c = read.cache;
    expect(read.cache.sources).toEqual([{ file: '/data/a.csv', headerHi: 1, headerLo: 2, first: 0, count: 3 }]);
    expect(
      [0, 1, 2].map((r) => [c.columns.hi[r], c.columns.lo[r], c.docId(r), c.docDigest(r), c.columns.version[r]]),
    ).toEqual([
      [11, 7, ID_B, '00000000000000bb', 16],
      [12, 8, ID_A, '00000000000000cc', 17],
      [10, 7, ID_A, '00000000000000aa', 18],
    ]);
    expect([c.string(0, 'postcode'), c.string(1, 'postcode'), c.string(1, 'suburb'), c.string(2, 'city')]).toEqual([
      '["2611AA","2611aa"]',
      '["2612AB","2612ab"]',
      's',
      'c1',
    ]);
    expect([c.columns.joined[1], c.columns.lat[1], c.columns.lat[2]]).toEqual([1, 51, 52]);
  });

  it("gives each live address its winning row's digest", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rows-'));
    const builder = cacheOf([
      [1, ID_A, '00000000000000a1', 5],
      [2, ID_A, '00000000000000a2', 9],
      [3, ID_A, '00000000000000a3', 6],
      [4, ID_B, '00000000000000b1', 1],
    ]);
    await writeRowCache(dir, { prefix: 'p-', generation: '20261126000000000', context: 'c' }, builder);
    const read = await readRowCache(dir, 'p-', '20261126000000000');
    if ('missing' in read) throw new Error(read.missing);
    const { table, liveIndex } = liveAddressDigests(read.cache);
    expect(table.size).toBe(2);
    expect([...liveIndex]).toEqual([0, 0, 0, 1]);
    expect(table.digestEquals(table.indexOf(ID_A), '00000000000000a2')).toBe(true);
    expect(table.digestEquals(table.indexOf(ID_B), '00000000000000b1')).toBe(true);
  });
});

describe("a street's sample points", () => {
  it('depend on its own addresses only, not on the streets before it in the stream', () => {
    const address = (street: string, i: number) => ({
      streetname: street,
      street_key: street.toLowerCase(),
      city: 'Delft',
      city_key: 'delft',
      location: { lon: 4 + i / 1000, lat: 52 + i / 1000 },
      country_id: 'nl',
      province_id: '',
      municipality_id: '',
      city_id: '',
    });
    const streetOf = (before: number) => {
      const acc = new StreetAccumulator();
      for (let i = 0; i < before; i++) acc.add(address('Markt', i));
      for (let i = 0; i < 60; i++) acc.add(address('Haven', i));
      return [...acc.documents()].find((s) => s.streetname === 'Haven');
    };
    expect(streetOf(40)).toEqual(streetOf(3));
  });
});
