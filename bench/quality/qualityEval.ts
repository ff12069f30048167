/**
 * Search-quality evaluation of POST /geocode/forward and POST /lookup/street on real address data.
 *
 *   npm run eval [-- --manifest datasets/sample.json|datasets/bulk.json] [--sample N] [--seed S]
 *                   [--concurrency 8] [--prefix P] [--reindex] [--allow-stale] [--classes a,b] [--failures 25]
 *
 * Elasticsearch: ELASTICSEARCH_URL, else one is started (dev/elasticsearch/provider.ts). The manifest is
 * indexed with the real indexer under the alias prefix (default `eval-sample-` for the Delft sample,
 * `bulk-` for the bulk manifest, `eval-<name>-` otherwise) when its aliases are missing, and reused when they
 * exist. The first pass over the index checks every street_key/street_text against the current normaliser;
 * an index built with another normaliser is re-indexed (a new generation behind the same aliases) unless
 * --allow-stale is given. The real app (createApp) serves the queries on an ephemeral port; every query goes
 * through HTTP, `--concurrency` at a time.
 *
 * Data. The addresses are read back from the live index: the indexer's view of the source rows, with the ids
 * the API answers with. Per class, the eligible addresses are ranked by hash(seed, class, id): the Delft sample
 * uses every eligible address; larger sets the first `--sample` (default 5,000) that yield a query, so the
 * sample is the same across runs and re-indexing. Each address yields one query per class:
 *   exact        the stored street name and number+suffix ("Rotterdamseweg", "139A-1")
 *   case         lower / UPPER / rAnDoM / iNVERTED case
 *   punctuation  diacritics stripped (always, when the name has any), punctuation added or dropped
 *                ("Oude-Delft", "Mekelweg.", "'s-Gravenweg" -> "s Gravenweg", doubled spaces, quotes)
 *   abbreviated  abbreviations in the places people write them, drawn from core/text/streetAbbreviations.json:
 *                a street type glued to a stem of 3+ letters or as a later word ("Woogstr.", "Oude Gr"), a
 *                title/royal title/ordinal/particle before another word ("Burg.", "Prof", "St.", "Kon.", "1e",
 *                "v.d.", "v."); only addresses with something to abbreviate
 *   typo1/typo2  one/two random typos (substitution, deletion, insertion, transposition) after the first
 *                letter (the matcher protects it, and people rarely get it wrong); the key of the result is at
 *                exactly 1/2 edits from the real key. The real street must be the only street within that many
 *                edits that has the house number (in any city): otherwise another street is as close and could
 *                rightly answer, and another typo is drawn (counted as "redrawnTypos" in the JSON). Look-alike
 *                streets without the number stay in: picking the one with the number is the matcher's job.
 *                typo1 on keys of 4+ letters (a typo in "Dam" or "Hof" is another name), typo2 ("long names")
 *                on keys of 10+
 *   suffix       addresses with a letter/addition, the number in another spelling ("12 a", "12-A", "139 a 1",
 *                "1/II", or the bare number plus the `suffix` field)
 *   postcode     street + number + postcode, "2628 CD" / "2628cd" spellings (Belgian postcodes as they are)
 *   postcode_number  postcode + number only
 *   nonexistent  an invented street (a real name with 3-4 edits, a real stem with another street type, or
 *                made-up syllables) whose key is at optimal-string-alignment distance >= 3 from EVERY street
 *                key in the index, with a real number
 *   missing_number  (beyond the issue's list; measures the tier order) the stored street with a number it does
 *                not have in any city, one or two off mostly, up to 10: forward must answer the nearest existing
 *                number on that street (within the city when given; either neighbour on a tie), not a look-alike
 *                street that happens to have the number; lookup must answer [] (shown as the empty share)
 * Street queries carry the address's city in a seeded half of the cases (never with a postcode).
 *
 * Truth. A query is about one source address A (street key S, number N, suffix key X, city C, postcode P).
 *   /geocode/forward is correct when it answers an address with street key S (postcode P for postcode_number),
 *   number N and suffix key X (X = "" for a bare number: forward prefers the address without a suffix), and,
 *   when the query carried the city / postcode, city C / postcode P. A bare street + number that exists in
 *   several cities has no single right answer without a city or postcode, so then any of them is correct.
 *   /lookup/street's truth set is every address with street key S (postcode P), number N, and suffix X when
 *   the query named one (a bare number means every suffix), narrowed to city C / postcode P when the query
 *   carried them. Recall = |answer ∩ truth| / |truth| and precision = |answer ∩ truth| / |answer| are averaged
 *   per query (precision over non-empty answers); "exact set" counts answers equal to the truth set.
 *   nonexistent: forward must answer 404 no_match (the no-match rate is the class's score); for lookup the
 *   share of empty answers is shown in the recall column.
 *
 * Targets (forward top-1): exact, case, punctuation, suffix, postcode, postcode_number 100%; abbreviated 99%;
 * typo1 97%; typo2 90%; nonexistent no_match 95%; missing_number (our own) 95%. The table and the first failures of every class go to
 * bench/results/quality-<manifest>-<timestamp>.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { aliasesExist } from '../../indexer/generations/generations.js';
import { runIndexing } from '../../indexer/commands/index.js';
import { createApp } from '../../src/wiring/app.js';
import { loadConfig, sha256Hex } from '../../src/config/service.js';
import { createElasticsearchClient } from '../../core/elasticsearch/client.js';
import { aliasName } from '../../core/elasticsearch/indexNames.js';
import { startElasticsearch } from '../../dev/elasticsearch/provider.js';
import { CLASSES, type ClassName, type ClassSpec, classRng, type EvalQuery } from './eval/classes.js';
import { type Addr, firstPass, SmallestK, TruthGroups } from './eval/corpus.js';
import { StreetKeyIndex } from './eval/distance.js';
import { evalDataset, SHARED_EVAL_OPTIONS } from './eval/evalArgs.js';
import { hash32 } from './eval/rng.js';
import {
  type ClassSummary,
  type ForwardAnswer,
  type LookupAnswer,
  type Scored,
  score,
  summarise,
  truthOf,
} from './eval/score.js';
import { RESULTS_DIR } from '../support/defaults.js';

const { values: args } = parseArgs({
  options: {
    ...SHARED_EVAL_OPTIONS,
    reindex: { type: 'boolean', default: false },
    'allow-stale': { type: 'boolean', default: false },
    classes: { type: 'string' },
    failures: { type: 'string', default: '25' },
  },
});

const log = (msg: string) => process.stderr.write(`[eval] ${msg}\n`);
const { manifestPath, manifestName, prefix } = evalDataset(args.manifest, args.prefix);
const seed = args.seed;
const concurrency = Math.max(1, Number(args.concurrency));
const failuresKept = Number(args.failures);
const selected: readonly ClassSpec[] = args.classes
  ? CLASSES.filter((c) => (args.classes as string).split(',').includes(c.name))
  : CLASSES;

async function main(): Promise<void> {
  const es = await startElasticsearch({ log });
  log(`Elasticsearch ${es.version} (${es.kind}) at ${es.url}`);
  const client = createElasticsearchClient({ url: es.url, requestTimeoutMs: 600_000 });
  const index = aliasName(prefix, 'addresses');
  const reindex = async (why: string) => {
    log(`indexing ${manifestPath} under "${prefix}" (${why}) ...`);
    const summary = await runIndexing({ client, manifestPath, indexPrefix: prefix, progress: 'none' });
    log(`indexed ${summary.levels.addresses.count} addresses in ${(summary.durationMs / 1000).toFixed(0)} s`);
  };
  try {
    if (args.reindex) await reindex('--reindex');
    else if (!(await aliasesExist(client, prefix))) await reindex('aliases missing');
    else log(`reusing the indexes behind "${prefix}*"`);

    // ---------------------------------------------------------------- pass 1: street keys and samples
    let total = 0;
    const countResp = await client.count({ index });
    const limit = args.sample !== undefined ? Number(args.sample) : countResp.count <= 20_000 ? Infinity : 5_000;
    const heaps = new Map<ClassName, SmallestK<Addr>>();
    // Room for the addresses whose query cannot be made (an ambiguous typo, no variant): the next ones step in.
    const capacity = limit === Infinity ? Number.MAX_SAFE_INTEGER : Math.ceil(limit * 3) + 50;
    for (const c of selected) heaps.set(c.name, new SmallestK<Addr>(capacity));
    const collect = (a: Addr) => {
      for (const c of selected)
        if (c.eligible(a)) heaps.get(c.name)!.offer(hash32(`${seed}|${c.name}|${a.id}`), a.id, a);
    };
    let pass = await firstPass(client, index, collect, (n) => progress('pass 1', n, countResp.count));
    if (pass.stale.count > 0) {
      log(
        `${pass.stale.count} addresses were indexed with another normaliser, e.g.\n  ${pass.stale.examples.join('\n  ')}`,
      );
      if (!args['allow-stale']) {
        await reindex('stale street keys');
        for (const c of selected) heaps.set(c.name, new SmallestK<Addr>(capacity));
        pass = await firstPass(client, index, collect, (n) => progress('pass 1', n, countResp.count));
      }
    }
    total = pass.total;
    log(`${total} addresses, ${pass.streetKeys.size} distinct street keys`);

    // ---------------------------------------------------------------- queries
    const streets = new StreetKeyIndex(pass.streetKeys);
    const ctx = {
      streets,
      streetNames: pass.streetNames,
      numbersByStreet: pass.numbersByStreet,
      redrawn: new Map<ClassName, number>(),
    };
    const queries: EvalQuery[] = [];
    const skipped = new Map<ClassName, number>();
    const started = Date.now();
    for (const c of selected) {
      let made = 0;
      let skip = 0;
      for (const a of heaps.get(c.name)!.sorted()) {
        if (made >= limit) break;
        const q = c.make(a, classRng(seed, c.name, a.id), ctx);
        if (q) {
          queries.push(q);
          made++;
        } else skip++;
      }
      skipped.set(c.name, skip);
    }
    log(`${queries.length} queries generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // ---------------------------------------------------------------- pass 2: truth groups
    const groups = new TruthGroups();
    groups.want(
      queries.flatMap((q) =>
        q.expect.kind === 'address' && q.expect.by === 'street'
          ? [TruthGroups.streetGroup(q.expect.streetKey, q.expect.houseNumber)]
          : [],
      ),
      queries.flatMap((q) =>
        q.expect.kind === 'address' && q.expect.by === 'postcode'
          ? [TruthGroups.postcodeGroup(q.expect.postcodeKey ?? '', q.expect.houseNumber)]
          : [],
      ),
      queries.flatMap((q) => (q.expect.kind === 'nearest' ? [q.expect.streetKey] : [])),
    );
    await groups.fill(client, index, (n) => progress('pass 2', n, total));

    // ---------------------------------------------------------------- run through the real API
    const key = randomBytes(16).toString('hex');
    const app = createApp({
      config: { ...loadConfig({}), apiKeyDigests: [sha256Hex(key)], corsOrigins: [], indexPrefix: prefix },
      client: createElasticsearchClient({ url: es.url, requestTimeoutMs: 30_000 }),
      logger: pino({ level: 'silent' }),
    });
    const server: Server = await new Promise((res) => {
      const s = app.listen(0, '127.0.0.1', () => res(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = async (path: string, body: unknown) => {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json: any = await res.json().catch(() => undefined);
      return { status: res.status, json, ms: performance.now() - t0 };
    };

    // Warm-up: the first queries pay for connection set-up and cold caches.
    for (const q of queries.slice(0, 50)) await post('/geocode/forward', q.body);

    const rows: { q: EvalQuery; s: Scored; fwd: ForwardAnswer; look: LookupAnswer }[] = new Array(queries.length);
    let next = 0;
    let done = 0;
    const runStarted = Date.now();
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= queries.length) return;
        const q = queries[i]!;
        const f = await post('/geocode/forward', q.body);
        const l = await post('/lookup/street', q.body);
        const fwd: ForwardAnswer = {
          status: f.status,
          ms: f.ms,
          ...(f.status === 200
            ? {
                id: f.json.id,
                streetname: f.json.streetname,
                number: f.json.number,
                suffix: f.json.suffix,
                city: f.json.city,
                postcode: f.json.postcode,
                confidence: f.json.confidence,
                match: f.json.match,
              }
            : { code: f.json?.error?.code }),
        };
        const look: LookupAnswer = {
          status: l.status,
          ids: Array.isArray(l.json) ? l.json.map((d: { id: string }) => d.id) : [],
          ms: l.ms,
        };
        rows[i] = { q, s: score(q, groups, fwd, look), fwd, look };
        done++;
        if (done % 2000 === 0) progress('queries', done, queries.length);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (Date.now() - runStarted) / 1000;
    log(`${queries.length} queries (x2 requests) in ${seconds.toFixed(0)} s`);
    server.closeAllConnections();
    await new Promise((res) => server.close(res));

    // ---------------------------------------------------------------- report
    const summaries: ClassSummary[] = [];
    const failures: Record<string, unknown[]> = {};
    const examples: Record<string, unknown[]> = {};
    for (const c of selected) {
      const classRows = rows.filter((r) => r.q.cls === c.name);
      summaries.push(summarise(c.name, c.target, classRows, skipped.get(c.name) ?? 0));
      examples[c.name] = classRows.slice(0, 8).map((r) => r.q.body);
      failures[c.name] = classRows
        .filter((r) => !r.s.forwardCorrect || (r.s.recall !== undefined && r.s.recall < 1) || r.s.error)
        .slice(0, failuresKept)
        .map((r) => ({
          query: r.q.body,
          expected:
            r.q.expect.kind === 'none'
              ? 'no_match'
              : r.q.expect.kind === 'nearest'
                ? { streetname: r.q.target.streetname, nearestTo: r.q.expect.houseNumber, city: r.q.target.city }
                : {
                    streetname: r.q.target.streetname,
                    number: r.q.target.number,
                    suffix: r.q.target.suffix,
                    city: r.q.target.city,
                    postcode: r.q.target.postcode,
                    lookupTruth: truthOf(r.q, groups).lookup.size,
                  },
          forward:
            r.fwd.status === 200
              ? {
                  streetname: r.fwd.streetname,
                  number: r.fwd.number,
                  suffix: r.fwd.suffix,
                  city: r.fwd.city,
                  postcode: r.fwd.postcode,
                  confidence: r.fwd.confidence,
                  match: r.fwd.match,
                  correct: r.s.forwardCorrect,
                }
              : { status: r.fwd.status, code: r.fwd.code },
          lookup: { returned: r.look.ids.length, recall: r.s.recall, precision: r.s.precision },
          ...(r.s.error ? { error: r.s.error } : {}),
        }));
    }
    const table = renderTable(summaries);
    process.stdout.write(
      `\nSearch quality: ${manifestName} (${total} addresses, prefix "${prefix}", seed ${seed}, ${limit === Infinity ? 'every eligible address' : `sample ${limit} per class`})\n\n${table}\n`,
    );
    const allPass = summaries.every((s) => s.pass);
    process.stdout.write(`\n${allPass ? 'All classes meet their targets.' : 'Some classes are below target.'}\n`);

    const dir = RESULTS_DIR;
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const out = resolve(dir, `quality-${manifestName}-${stamp}.json`);
    const report = {
      manifest: manifestPath,
      prefix,
      seed,
      sample: limit === Infinity ? 'all' : limit,
      addresses: total,
      streetKeys: pass.streetKeys.size,
      elasticsearch: es.version,
      concurrency,
      generatedAt: new Date().toISOString(),
      classes: summaries,
      allPass,
      redrawnTypos: Object.fromEntries(ctx.redrawn),
      examples,
      failures,
    };
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(resolve(dir, `quality-${manifestName}-latest.json`), `${JSON.stringify(report, null, 2)}\n`);
    log(`written ${out}`);
    process.exitCode = allPass ? 0 : 1;
  } finally {
    await client.close();
    await es.stop();
  }
}

let lastProgress = 0;
function progress(what: string, n: number, of: number): void {
  const now = Date.now();
  if (now - lastProgress < 5000 && n < of) return;
  lastProgress = now;
  log(`${what}: ${n}/${of}`);
}

const emptyIsRight = (cls: ClassName) => cls === 'nonexistent' || cls === 'missing_number';
const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

function renderTable(rows: ClassSummary[]): string {
  const header = [
    'class',
    'n',
    'forward top-1',
    'target',
    'lookup recall',
    'lookup precision',
    'lookup exact set',
    'fwd p50 ms',
    'fwd p95 ms',
    'conf>=.9 wrong',
    'ok',
  ];
  const body = rows.map((s) => [
    s.class,
    String(s.n),
    s.class === 'nonexistent' ? `${pct(s.forwardTop1)} no_match` : pct(s.forwardTop1),
    pct(s.target),
    emptyIsRight(s.class) ? `${pct(s.lookupRecall)} empty` : pct(s.lookupRecall),
    emptyIsRight(s.class) ? '-' : pct(s.lookupPrecision),
    emptyIsRight(s.class) ? '-' : pct(s.lookupExact),
    s.forwardP50ms.toFixed(1),
    s.forwardP95ms.toFixed(1),
    String(s.confidentWrong),
    s.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

main().catch((error) => {
  process.stderr.write(`[eval] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
