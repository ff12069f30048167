/**
 * Quality of GET /reverse. For each address (the Delft sample: every address; larger data: a seeded sample of
 * `limit`) a point within 5 m of it (seeded random offset, uniform over the disc) is sent to /reverse.
 *
 * Truth, computed here and not by the API's own query: every address within 25 m of the point (a plain
 * geo_distance filter, no sort) is fetched and the nearest is found by haversine in this file; the point lies
 * within 5 m of its source address, so the nearest is always among them.
 *   nearest       the first answer lies at the true nearest distance (within 10 cm): several addresses at one
 *                 point count as one, whichever of them comes first. "One point" is 10 cm: student blocks carry
 *                 hundreds of address points a few centimetres apart, which Elasticsearch's distance sort (on
 *                 quantised doc values) reports at one distance; the strict rate (2 cm) is reported as well
 *   municipality  areas.municipality.id equals the source address's stored municipality_id (null when it has
 *                 none); the stored id comes from the indexer's own spatial join
 * Targets: nearest >= 99.9 %, municipality >= 99.5 %. p50/p95 of the HTTP latency are reported.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { AddressDoc, GeoPoint } from '../../../../core/elasticsearch/documents.js';
import { Rng } from '../rng.js';
import { type EntryEvalContext, type EntryEvaluation, markdownTable, pct, percentile } from './context.js';
import { metresBetween } from '../../../../core/geo/distance.js';

type Source = Pick<AddressDoc, 'id' | 'location' | 'municipality_id' | 'province_id' | 'country_id'>;
const FIELDS = ['id', 'location', 'municipality_id', 'province_id', 'country_id'];
const OFFSET_M = 5;
const TRUTH_RADIUS_M = 25;
const TIE_M = 0.1;
const STRICT_TIE_M = 0.02;
const TARGETS = { nearest: 0.999, municipality: 0.995 };
/** A point `metres` from `p` in direction `bearing` (radians from north); flat-earth, fine at a few metres. */
function offset(p: GeoPoint, metres: number, bearing: number): GeoPoint {
  const dLat = (metres * Math.cos(bearing)) / 111_320;
  const dLon = (metres * Math.sin(bearing)) / (111_320 * Math.cos((p.lat * Math.PI) / 180));
  return { lat: p.lat + dLat, lon: p.lon + dLon };
}

/** Every address (limit Infinity), or a seeded sample of `limit` (random_score over the id). */
async function sources(ctx: EntryEvalContext): Promise<Source[]> {
  const index = `${ctx.prefix}addresses`;
  if (Number.isFinite(ctx.limit)) {
    const res = await ctx.client.search<Source>({
      index,
      size: Math.min(10_000, ctx.limit),
      _source: FIELDS,
      query: {
        function_score: { query: { match_all: {} }, functions: [{ random_score: { seed: ctx.seed, field: 'id' } }] },
      },
    });
    return res.hits.hits.flatMap((h) => (h._source ? [h._source] : []));
  }
  const out: Source[] = [];
  let after: estypes.SortResults | undefined;
  for (;;) {
    const res = await ctx.client.search<Source>({
      index,
      size: 5_000,
      _source: FIELDS,
      sort: [{ id: 'asc' }],
      ...(after ? { search_after: after } : {}),
    });
    const hits = res.hits.hits;
    out.push(...hits.flatMap((h) => (h._source ? [h._source] : [])));
    if (hits.length < 5_000) return out;
    after = hits[hits.length - 1]?.sort;
  }
}

/** Distance from the point to the nearest address, by haversine over every address within TRUTH_RADIUS_M. */
async function trueNearest(ctx: EntryEvalContext, point: GeoPoint): Promise<number | undefined> {
  const res = await ctx.client.search<Pick<AddressDoc, 'location'>>({
    index: `${ctx.prefix}addresses`,
    size: 1_000,
    _source: ['location'],
    query: { bool: { filter: [{ geo_distance: { distance: `${TRUTH_RADIUS_M}m`, location: point } }] } },
  });
  let best: number | undefined;
  for (const hit of res.hits.hits) {
    if (!hit._source) continue;
    const d = metresBetween(point, hit._source.location);
    if (best === undefined || d < best) best = d;
  }
  return best;
}

interface Case {
  id: string;
  point: GeoPoint;
  nearest: boolean;
  nearestStrict: boolean;
  municipality: boolean;
  province: boolean;
  country: boolean;
  ms: number;
  status: number;
  detail?: unknown;
}

export async function evaluateReverse(ctx: EntryEvalContext): Promise<EntryEvaluation> {
  const addresses = await sources(ctx);
  ctx.log(`reverse: ${addresses.length} addresses`);
  const cases = await ctx.runAll(addresses, async (a): Promise<Case> => {
    const rng = new Rng(`${ctx.seed}:reverse:${a.id}`);
    const point = offset(a.location, OFFSET_M * Math.sqrt(rng.next()), rng.next() * 2 * Math.PI);
    const [answer, truth] = await Promise.all([
      ctx.api.get(`/reverse?lat=${point.lat}&lon=${point.lon}`),
      trueNearest(ctx, point),
    ]);
    const first = answer.json?.addresses?.[0];
    const areas = answer.json?.areas ?? {};
    const firstDistance = first ? metresBetween(point, { lat: first.latitude, lon: first.longitude }) : undefined;
    const nearest =
      answer.status === 200 &&
      truth !== undefined &&
      firstDistance !== undefined &&
      Math.abs(firstDistance - truth) <= TIE_M;
    const same = (area: { id: string } | null | undefined, stored: string) => (area?.id ?? '') === stored;
    const result: Case = {
      id: a.id,
      point,
      nearest,
      nearestStrict: nearest && Math.abs(firstDistance - truth) <= STRICT_TIE_M,
      municipality: answer.status === 200 && same(areas.municipality, a.municipality_id),
      province: answer.status === 200 && same(areas.province, a.province_id),
      country: answer.status === 200 && same(areas.country, a.country_id),
      ms: answer.ms,
      status: answer.status,
    };
    if (!nearest || !result.municipality) {
      result.detail = { truthM: truth, firstM: firstDistance, first: first?.id, areas, stored: a };
    }
    return result;
  });

  const n = cases.length || 1;
  const rate = (key: 'nearest' | 'nearestStrict' | 'municipality' | 'province' | 'country') =>
    cases.filter((c) => c[key]).length / n;
  const rates = {
    nearest: rate('nearest'),
    nearestStrict: rate('nearestStrict'),
    municipality: rate('municipality'),
    province: rate('province'),
    country: rate('country'),
  };
  const latencies = cases.map((c) => c.ms);
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  const pass = rates.nearest >= TARGETS.nearest && rates.municipality >= TARGETS.municipality;
  const table = markdownTable(
    ['measure', 'cases', 'correct', 'target'],
    [
      ['nearest address first (one point = 10 cm)', cases.length, pct(rates.nearest), pct(TARGETS.nearest)],
      ['nearest address first (one point = 2 cm)', cases.length, pct(rates.nearestStrict), '–'],
      [
        'containing municipality = stored municipality_id',
        cases.length,
        pct(rates.municipality),
        pct(TARGETS.municipality),
      ],
      ['province = stored province_id', cases.length, pct(rates.province), '–'],
      ['country = stored country_id', cases.length, pct(rates.country), '–'],
      ['latency p50 / p95 ms', cases.length, `${p50} / ${p95}`, '–'],
    ],
  );
  const failures = cases.filter((c) => !c.nearest || !c.municipality).slice(0, 25);
  return {
    name: 'reverse',
    table,
    pass,
    summary: {
      cases: cases.length,
      offsetMetres: OFFSET_M,
      rates,
      targets: TARGETS,
      latencyMs: { p50, p95 },
      errors: cases.filter((c) => c.status !== 200).length,
      failures,
    },
  };
}
