/**
 * GET /search quality: every sampled address written as people write it, in each usual format, must come back
 * first (top-1). Targets: well-formed strings >= 99.5 %, one typo in the street >= 97 %.
 *
 * Truth: the first result has the address's street key, number and suffix key, and its city (and postcode) when
 * the text gave them. Two addresses that share all of those (the same street + number twice in one city, with
 * different postcodes, when the text gives no postcode) are either of them right. A typo case is drawn only when
 * no other street within one edit of the typo has the number (then another street is as close and could rightly
 * answer), as in the forward eval.
 */
import { normaliseText, streetKey } from '../../../../core/text/normalise.js';
import { normalisePostcode } from '../../../../core/text/postcode.js';
import { aliasName } from '../../../../core/elasticsearch/indexNames.js';
import { type Addr, firstPass, SmallestK } from '../corpus.js';
import { StreetKeyIndex } from '../distance.js';
import { hash32, Rng } from '../rng.js';
import { typoVariant } from '../variants.js';
import {
  type EntryEvalContext,
  type EntryEvaluation,
  logMisses,
  markdownTable,
  MISSES_SHOWN,
  pct,
  percentile,
} from './context.js';

export interface FreeTextCase {
  format: string;
  text: string;
  addr: Addr;
  /** What the text names, so the answer must match it. */
  gives: { city: boolean; postcode: boolean; street: boolean };
}

const FORMATS = [
  'street number, postcode city',
  'lower, glued postcode',
  'city, street number',
  'postcode number',
  'street number city',
  'typo1 in street',
  'box: bus N',
  'box: /N',
  'box as people say it',
] as const;
type Format = (typeof FORMATS)[number];
const TARGET = { wellFormed: 0.995, typo1: 0.97, box: 0.99, boxSaid: 0.95 };
const targetOf = (format: Format) =>
  format === 'typo1 in street'
    ? TARGET.typo1
    : format === 'box as people say it'
      ? TARGET.boxSaid
      : format.startsWith('box')
        ? TARGET.box
        : TARGET.wellFormed;

/** Belgian postcodes are four digits: boxes are a Belgian register's. */
const isBelgianBox = (a: Addr) => a.suffix_key !== '' && /^\d{4}$/.test(a.postcode_key);
/** A numeric box as people say it: "bus 3" for the register's b003, 0003 or BT03. */
const NUMERIC_BOX = /^(?:b|bt|bte|bus)?0*([1-9]\d*)$/;
const SAID_BOX_WORDS = ['bus', 'bus', 'bte', 'boîte', 'b'];

/**
 * The box classes (issue 20): the box as the register wrote it after `bus` and after `/`, and a numeric box as
 * people say it (no zeros, no b; the box word any of bus, bte, boîte, b).
 */
function boxCasesOf(a: Addr, rng: Rng): FreeTextCase[] {
  const place = `${a.postcode} ${a.city}`;
  const cases: FreeTextCase[] = [
    { format: 'box: bus N', text: `${a.streetname} ${a.number} bus ${a.suffix_key}, ${place}`, addr: a, gives: ALL },
    { format: 'box: /N', text: `${a.streetname} ${a.number}/${a.suffix_key}, ${place}`, addr: a, gives: ALL },
  ];
  const digits = NUMERIC_BOX.exec(a.suffix_key)?.[1];
  if (digits) {
    const word = rng.pick(SAID_BOX_WORDS);
    const text = `${a.streetname} ${a.number} ${word} ${digits}${rng.chance(0.5) ? ',' : ''} ${place}`;
    cases.push({ format: 'box as people say it', text, addr: a, gives: ALL });
  }
  return cases;
}
const ALL = { city: true, postcode: true, street: true };

const isDutchPostcode = (postcode: string) => /^\d{4}\s?[A-Za-z]{2}$/.test(postcode);
const spacedPostcode = (postcode: string) =>
  isDutchPostcode(postcode) ? `${postcode.slice(0, 4)} ${postcode.slice(-2).toUpperCase()}` : postcode;

function casesOf(a: Addr, rng: Rng, streets: StreetKeyIndex, numbers: Map<string, Set<number>>): FreeTextCase[] {
  const number = `${a.number}${a.suffix}`;
  const all = { city: true, postcode: true, street: true };
  const noPostcode = { city: true, postcode: false, street: true };
  const cases: FreeTextCase[] = [];
  if (a.postcode) {
    cases.push({
      format: FORMATS[0],
      text: `${a.streetname} ${number}, ${spacedPostcode(a.postcode)} ${a.city}`,
      addr: a,
      gives: all,
    });
    cases.push({
      format: FORMATS[1],
      text: `${a.streetname} ${number} ${a.postcode.replace(/\s/g, '')} ${a.city}`.toLowerCase(),
      addr: a,
      gives: all,
    });
    // A bare Belgian postcode and a number are two numbers: the format is Dutch.
    if (isDutchPostcode(a.postcode)) {
      cases.push({
        format: FORMATS[3],
        text: `${a.postcode.replace(/\s/g, '')} ${number.toLowerCase()}`,
        addr: a,
        gives: { city: false, postcode: true, street: false },
      });
    }
  }
  cases.push({ format: FORMATS[2], text: `${a.city}, ${a.streetname} ${number}`, addr: a, gives: noPostcode });
  cases.push({ format: FORMATS[4], text: `${a.streetname} ${number} ${a.city}`, addr: a, gives: noPostcode });
  if (a.street_key.length >= 4) {
    const typo = typoVariant(a.streetname, 1, rng);
    if (typo) {
      const rivals = streets
        .within(streetKey(typo), 1)
        .filter((s) => s.key !== a.street_key && numbers.get(s.key)?.has(a.house_number));
      if (rivals.length === 0)
        cases.push({ format: FORMATS[5], text: `${typo} ${number} ${a.city}`, addr: a, gives: noPostcode });
    }
  }
  return cases;
}

const compactSuffix = (suffix: string) => suffix.toLowerCase().replace(/[^a-z0-9]/g, '');

function isRight(c: FreeTextCase, first: any): boolean {
  if (!first) return false;
  const a = c.addr;
  if (c.gives.street && streetKey(first.streetname) !== a.street_key) return false;
  // The displayed suffix is the stored letter and addition joined by a dash ("-BTE4"): compacted, the stored key.
  if (first.number !== a.number || compactSuffix(first.suffix) !== a.suffix_key) return false;
  if (c.gives.city && normaliseText(first.city) !== a.city_key) return false;
  if (c.gives.postcode && normalisePostcode(first.postcode) !== a.postcode_key) return false;
  return true;
}

/** The texts this evaluation asks (seeded from the live addresses index), each with the address it names. */
export async function drawFreeTextCases(
  ctx: Pick<EntryEvalContext, 'client' | 'prefix' | 'limit' | 'seed' | 'log'>,
): Promise<FreeTextCase[]> {
  const index = aliasName(ctx.prefix, 'addresses');
  const sample = new SmallestK<Addr>(ctx.limit === Infinity ? Number.MAX_SAFE_INTEGER : ctx.limit);
  const boxes = new SmallestK<Addr>(ctx.limit === Infinity ? Number.MAX_SAFE_INTEGER : ctx.limit);
  const pass = await firstPass(ctx.client, index, (a) => {
    if (a.city && a.streetname) sample.offer(hash32(`${ctx.seed}|search|${a.id}`), a.id, a);
    if (a.city && a.streetname && isBelgianBox(a)) boxes.offer(hash32(`${ctx.seed}|box|${a.id}`), a.id, a);
  });
  const streets = new StreetKeyIndex(pass.streetKeys);
  const cases = sample
    .sorted()
    .flatMap((a) => casesOf(a, new Rng(`${ctx.seed}|search|${a.id}`), streets, pass.numbersByStreet))
    .concat(boxes.sorted().flatMap((a) => boxCasesOf(a, new Rng(`${ctx.seed}|box|${a.id}`))));
  ctx.log(`search: ${cases.length} strings from ${sample.sorted().length} addresses`);
  return cases;
}

export async function evaluateFreeText(ctx: EntryEvalContext): Promise<EntryEvaluation> {
  const cases = await drawFreeTextCases(ctx);

  const outcomes = await ctx.runAll(cases, async (c) => {
    const res = await ctx.api.get(`/search?${new URLSearchParams({ q: c.text, size: '1' })}`);
    return { c, right: res.status === 200 && isRight(c, res.json?.[0]), ms: res.ms, first: res.json?.[0] };
  });

  const rows = FORMATS.map((format) => {
    const of = outcomes.filter((o) => o.c.format === format);
    const right = of.filter((o) => o.right).length;
    const target = targetOf(format);
    const rate = of.length ? right / of.length : 1;
    return {
      format,
      n: of.length,
      rate,
      target,
      p50: percentile(
        of.map((o) => o.ms),
        50,
      ),
      p95: percentile(
        of.map((o) => o.ms),
        95,
      ),
      pass: rate >= target,
      failures: of
        .filter((o) => !o.right)
        .slice(0, MISSES_SHOWN)
        .map((o) => ({
          query: o.c.text,
          expected: `${o.c.addr.streetname} ${o.c.addr.number} [${o.c.addr.suffix_key}] ${o.c.addr.postcode} ${o.c.addr.city}`,
          got: o.first
            ? `${o.first.type} ${o.first.streetname} ${o.first.number}${o.first.suffix} ${o.first.postcode} ${o.first.city}`
            : null,
        })),
    };
  });
  for (const r of rows) logMisses(ctx, `search: ${r.format}`, r.failures);
  const table = markdownTable(
    ['format', 'n', 'top-1', 'target', 'p50 ms', 'p95 ms', 'ok'],
    rows.map((r) => [r.format, r.n, pct(r.rate), pct(r.target), r.p50, r.p95, r.pass ? 'PASS' : 'FAIL']),
  );
  return { name: 'search (free text)', table, pass: rows.every((r) => r.pass), summary: { rows } };
}
