/**
 * GET /autocomplete as a type-ahead is used: for every street (sample) or a seeded sample of streets (bulk), type
 * its name one character at a time and count the characters until the street (name and city) is among the first
 * five suggestions; and send the full "street number city" of addresses and check that the address is among the
 * first five. On the bulk data each street is typed with a focus within 3 km of it (a map-centred type-ahead).
 *
 * Targets: median characters typed <= 5; full address in the top 5 >= 99 %.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { AddressDoc } from '../../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../../core/elasticsearch/indexNames.js';
import { Rng } from '../rng.js';
import { type EntryEvalContext, type EntryEvaluation, markdownTable, pct, percentile } from './context.js';

const TOP = 5;
const MEDIAN_CHARS_TARGET = 5;
const FULL_ADDRESS_TARGET = 0.99;
const FOCUS_RADIUS_M = 3000;
/** Streets and addresses drawn on large data when no limit is given. */
const DEFAULT_BULK_CASES = 2000;
const FAILURES_KEPT = 15;

type Doc = Pick<AddressDoc, 'id' | 'streetname' | 'number' | 'suffix' | 'city' | 'location'>;
const SOURCE = ['id', 'streetname', 'number', 'suffix', 'city', 'location'];

interface Suggestion {
  type: string;
  id?: string;
  streetname: string;
  city: string;
}

/** Every (street, city) of the index with one of its addresses, through a composite aggregation. */
async function everyStreet(ctx: EntryEvalContext, index: string): Promise<Doc[]> {
  const out: Doc[] = [];
  let after: Record<string, estypes.FieldValue> | undefined;
  for (;;) {
    const res = await ctx.client.search({
      index,
      size: 0,
      aggs: {
        streets: {
          composite: {
            size: 1000,
            sources: [{ street: { terms: { field: 'street_key' } } }, { city: { terms: { field: 'city_key' } } }],
            ...(after ? { after } : {}),
          },
          aggs: { one: { top_hits: { size: 1, _source: SOURCE } } },
        },
      },
    });
    const agg = res.aggregations?.streets as estypes.AggregationsCompositeAggregate & {
      buckets: { one: { hits: { hits: { _source: Doc }[] } } }[];
    };
    for (const bucket of agg.buckets) out.push(bucket.one.hits.hits[0]!._source);
    if (!agg.after_key || agg.buckets.length === 0) return out;
    after = agg.after_key;
  }
}

async function seededAddresses(ctx: EntryEvalContext, index: string, count: number, salt: string): Promise<Doc[]> {
  const res = await ctx.client.search<Doc>({
    index,
    size: Math.min(count, 10_000),
    _source: SOURCE,
    query: {
      function_score: {
        query: { match_all: {} },
        functions: [{ random_score: { seed: `${ctx.seed}-${salt}`, field: 'id' } }],
      },
    },
  });
  return res.hits.hits.map((h) => h._source!);
}

/** A point within `radius` metres of `p`, uniform over the disc, from the seeded generator. */
export function nearby(p: { lat: number; lon: number }, rng: Rng, radius: number) {
  const r = radius * Math.sqrt(rng.next());
  const angle = 2 * Math.PI * rng.next();
  const dLat = (r * Math.cos(angle)) / 111_320;
  const dLon = (r * Math.sin(angle)) / (111_320 * Math.cos((p.lat * Math.PI) / 180));
  return { lat: Math.round((p.lat + dLat) * 1e6) / 1e6, lon: Math.round((p.lon + dLon) * 1e6) / 1e6 };
}

export async function evaluateAutocomplete(ctx: EntryEvalContext): Promise<EntryEvaluation> {
  const index = aliasName(ctx.prefix, 'addresses');
  const large = ctx.manifestName !== 'sample';
  const limit = Number.isFinite(ctx.limit) ? ctx.limit : large ? DEFAULT_BULK_CASES : Infinity;

  // Streets: every one on the sample, a seeded sample (one street per drawn address, duplicates dropped) on bulk.
  let streets: Doc[];
  if (Number.isFinite(limit)) {
    const seen = new Set<string>();
    streets = (await seededAddresses(ctx, index, limit, 'streets')).filter((d) => {
      const key = `${d.streetname}|${d.city}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  } else streets = await everyStreet(ctx, index);
  ctx.log(`autocomplete: typing ${streets.length} streets${large ? ' with a focus within 3 km' : ''}`);

  const latencies: number[] = [];
  const rng = new Rng(`${ctx.seed}-autocomplete-focus`);
  const focusOf = streets.map((s) => (large ? nearby(s.location, rng, FOCUS_RADIUS_M) : undefined));
  const typed = await ctx.runAll(streets, async (street, i) => {
    const focus = focusOf[i];
    const extra = focus ? `&lat=${focus.lat}&lon=${focus.lon}` : '';
    for (let n = 1; n <= street.streetname.length; n++) {
      const prefix = street.streetname.slice(0, n);
      if (!/[\p{L}\p{N}]/u.test(prefix) || /\s$/.test(prefix)) continue;
      const answer = await ctx.api.get(`/autocomplete?q=${encodeURIComponent(prefix)}&size=${TOP}${extra}`);
      latencies.push(answer.ms);
      const list = (answer.status === 200 ? answer.json : []) as Suggestion[];
      if (list.some((s) => s.type === 'street' && s.streetname === street.streetname && s.city === street.city)) {
        return n;
      }
    }
    return Infinity;
  });
  const found = typed.filter(Number.isFinite);
  const medianChars = percentile(
    typed.map((n) => (Number.isFinite(n) ? n : 1000)),
    50,
  );
  const neverTyped = streets.filter((_, i) => !Number.isFinite(typed[i])).slice(0, FAILURES_KEPT);

  // Full "street number city" strings.
  const addresses = Number.isFinite(limit)
    ? await seededAddresses(ctx, index, limit, 'addresses')
    : (await ctx.client.search<Doc>({ index, size: 10_000, _source: SOURCE, sort: ['id'] })).hits.hits.map(
        (h) => h._source!,
      );
  ctx.log(`autocomplete: ${addresses.length} full addresses`);
  const fullLatencies: number[] = [];
  const fullHits = await ctx.runAll(addresses, async (a) => {
    const text = `${a.streetname} ${a.number}${a.suffix ? a.suffix : ''} ${a.city}`;
    const answer = await ctx.api.get(`/autocomplete?q=${encodeURIComponent(text)}&size=${TOP}`);
    fullLatencies.push(answer.ms);
    const list = (answer.status === 200 ? answer.json : []) as Suggestion[];
    return list.some((s) => s.id === a.id) ? null : text;
  });
  const misses = fullHits.filter((m): m is string => m !== null);
  const fullRate = addresses.length ? 1 - misses.length / addresses.length : 0;

  const pass = medianChars <= MEDIAN_CHARS_TARGET && fullRate >= FULL_ADDRESS_TARGET;
  const table = markdownTable(
    ['measure', 'cases', 'result', 'target', 'p50 ms', 'p99 ms'],
    [
      [
        `characters typed until the street is in the top ${TOP} (median)`,
        streets.length,
        `${medianChars} (found ${pct(found.length / Math.max(1, streets.length))})`,
        `<= ${MEDIAN_CHARS_TARGET}`,
        percentile(latencies, 50),
        percentile(latencies, 99),
      ],
      [
        `full "street number city" in the top ${TOP}`,
        addresses.length,
        pct(fullRate),
        `>= ${pct(FULL_ADDRESS_TARGET)}`,
        percentile(fullLatencies, 50),
        percentile(fullLatencies, 99),
      ],
    ],
  );
  return {
    name: 'autocomplete',
    table,
    pass,
    summary: {
      streets: streets.length,
      median_chars: medianChars,
      p90_chars: percentile(
        typed.map((n) => (Number.isFinite(n) ? n : 1000)),
        90,
      ),
      streets_found: found.length,
      streets_never_found: neverTyped.map((s) => `${s.streetname}, ${s.city}`),
      full_addresses: addresses.length,
      full_address_top5: fullRate,
      full_address_misses: misses.slice(0, FAILURES_KEPT),
      keystroke_p50_ms: percentile(latencies, 50),
      keystroke_p99_ms: percentile(latencies, 99),
      full_p50_ms: percentile(fullLatencies, 50),
      full_p99_ms: percentile(fullLatencies, 99),
    },
  };
}
