/**
 * A house number the register does not have (issue 49): real streets of the Dutch provinces and of Brussels (a seeded
 * pool of addresses, each street of a city once; Brussels named in French or in Dutch, seeded) with a number no
 * address of that street in that city has (drawn from 1 to ten past its highest number, checked against the index),
 * typed through every door:
 *
 *   /search q=                       `Contrabasweg 977, 1312 WR Almere` and `977 Contrabasweg, 1312 WR Almere`
 *   /nominatim/search q=             the same two texts
 *   /nominatim/search structured     street=`977 Contrabasweg` (Nominatim's order) and street=`Contrabasweg 977`,
 *                                    with postalcode= and city=
 *   /pelias/v1/search text=          the same two texts
 *   POST /geocode/forward            {streetname, number, postcode, city}
 *
 * Right: the first result is that street (the streets index's record of the street key in that city; type street,
 * Nominatim's road, Pelias' street layer); forward: the street's answer with match.number `none`, which the API may
 * not give yet (then this row counts what it gives). Beside the rate: how many first answers are an address of that
 * street (another number), how many are nothing (`[]`, forward's 404), how many something else.
 *
 * Target: the right street first for >= 99 % at every door (the issue's).
 */
import { aliasName } from '../../../../core/elasticsearch/indexNames.js';
import { spacedPostcode } from '../addressForms.js';
import { Rng } from '../rng.js';
import { type EntryEvalContext, type EntryEvaluation, logMisses, markdownTable, MISSES_SHOWN, pct } from './context.js';
import { type DoorAnswer, doors, type Top } from './doors.js';
import {
  brief,
  classRow,
  drawPools,
  type FormDoc,
  formAddress,
  namesStreet,
  GROUPS,
  groupCell,
  groupOf,
  type Outcome,
  STRATA,
  type Stratum,
  streetIds,
  streetOf,
} from './formCases.js';

const TARGET = 0.99;
/** Numbers drawn past the street's highest. */
const PAST_HIGHEST = 10;

interface StreetCase {
  stratum: Stratum;
  doc: FormDoc;
  number: number;
  street: string;
  city: string;
  postcode: string;
  language: 'nl' | 'fr';
  ids: Set<string>;
  of: ReturnType<typeof streetOf>;
}

const CLASSES = [
  { door: '/search', text: 'street N, postcode city' },
  { door: '/search', text: 'N street, postcode city' },
  { door: '/nominatim/search q=', text: 'street N, postcode city' },
  { door: '/nominatim/search q=', text: 'N street, postcode city' },
  { door: '/nominatim/search structured', text: 'street="N street"' },
  { door: '/nominatim/search structured', text: 'street="street N"' },
  { door: '/pelias/v1/search', text: 'street N, postcode city' },
  { door: '/pelias/v1/search', text: 'N street, postcode city' },
  { door: 'POST /geocode/forward', text: '{streetname, number, postcode, city}' },
] as const;
const label = (c: (typeof CLASSES)[number]) => `${c.door} ${c.text}`;

/** The house numbers the street has in its city. */
async function numbersOf(ctx: EntryEvalContext, d: FormDoc): Promise<Set<number>> {
  const res = await ctx.client.search({
    index: aliasName(ctx.prefix, 'addresses'),
    size: 0,
    query: { bool: { filter: [{ term: { street_key: d.street_key } }, { term: { city_key: d.city_key } }] } },
    aggs: { numbers: { terms: { field: 'house_number', size: 65_000 } } },
  });
  const agg = res.aggregations?.numbers as { buckets: { key: number }[] } | undefined;
  return new Set((agg?.buckets ?? []).map((b) => Number(b.key)));
}

async function drawStreets(ctx: EntryEvalContext): Promise<StreetCase[]> {
  const pools = await drawPools(ctx, 'unknown-number');
  const perStratum = Number.isFinite(ctx.limit) ? Math.ceil(ctx.limit / 2) : 5_000;
  const picked: { stratum: Stratum; doc: FormDoc }[] = [];
  for (const stratum of STRATA) {
    const seen = new Set<string>();
    for (const doc of pools.byStratum[stratum]) {
      if (seen.size >= perStratum) break;
      const key = `${doc.street_key}|${doc.city_key}`;
      if (seen.has(key)) continue;
      seen.add(key);
      picked.push({ stratum, doc });
    }
  }
  const cases = await ctx.runAll(picked, async ({ stratum, doc }): Promise<StreetCase | undefined> => {
    const rng = new Rng(`${ctx.seed}|unknown-number|${doc.street_key}|${doc.city_key}`);
    const [numbers, ids] = await Promise.all([numbersOf(ctx, doc), streetIds(ctx, doc)]);
    const highest = Math.max(0, ...numbers);
    let number: number | undefined;
    for (let attempt = 0; attempt < 100 && number === undefined; attempt++) {
      const n = 1 + rng.int(highest + PAST_HIGHEST);
      if (!numbers.has(n)) number = n;
    }
    if (number === undefined || ids.size === 0) return undefined;
    const a = formAddress(doc, pools.cityFr);
    const french = a.streetFr !== undefined && rng.chance(0.5);
    return {
      stratum,
      doc,
      number,
      street: french ? a.streetFr! : a.streetname,
      city: french ? (a.cityFr ?? a.city) : a.city,
      postcode: spacedPostcode(a.postcode),
      language: french ? 'fr' : 'nl',
      ids,
      of: streetOf(doc, pools.cityFr),
    };
  });
  const kept = cases.filter((c): c is StreetCase => c !== undefined);
  ctx.log(`unknown-number: ${kept.length} streets with a number they lack`);
  return kept;
}

type Verdict = 'right' | 'address of the street' | 'nothing' | 'other';

function verdictOf(c: StreetCase, answer: DoorAnswer, forward: boolean): Verdict {
  const first: Top | undefined = answer.tops[0];
  if (!first) return 'nothing';
  const ofStreet = namesStreet(c.of, first.street, first.city);
  if (forward) {
    if (first.matchNumber === 'none' && (c.ids.has(first.id) || ofStreet)) return 'right';
    return ofStreet ? 'address of the street' : 'other';
  }
  if (first.kind === 'street' && c.ids.has(first.id)) return 'right';
  return first.kind === 'address' && ofStreet ? 'address of the street' : 'other';
}

export async function evaluateUnknownNumber(ctx: EntryEvalContext): Promise<EntryEvaluation> {
  const streets = await drawStreets(ctx);
  const asks = streets.flatMap((c) => CLASSES.map((cls) => ({ c, cls })));
  const outcomes = await ctx.runAll(asks, async ({ c, cls }) => {
    const named = `${c.street} ${c.number}, ${c.postcode} ${c.city}`;
    const numberFirst = `${c.number} ${c.street}, ${c.postcode} ${c.city}`;
    const text = cls.text.startsWith('street N') ? named : numberFirst;
    const structured = {
      street: cls.text === 'street="N street"' ? `${c.number} ${c.street}` : `${c.street} ${c.number}`,
      postalcode: c.postcode,
      city: c.city,
    };
    const body = { streetname: c.street, number: String(c.number), postcode: c.postcode, city: c.city };
    const answer =
      cls.door === '/search'
        ? await doors.search(ctx.api, text)
        : cls.door === '/nominatim/search q='
          ? await doors.nominatim(ctx.api, { q: text })
          : cls.door === '/nominatim/search structured'
            ? await doors.nominatim(ctx.api, structured)
            : cls.door === '/pelias/v1/search'
              ? await doors.pelias(ctx.api, text)
              : await doors.forward(ctx.api, body);
    const verdict = verdictOf(c, answer, cls.door === 'POST /geocode/forward');
    const asked =
      cls.door === '/nominatim/search structured'
        ? new URLSearchParams(structured).toString()
        : cls.door === 'POST /geocode/forward'
          ? JSON.stringify(body)
          : text;
    const outcome: Outcome = {
      cls: label(cls),
      group: groupOf(c.stratum, c.language),
      text: asked,
      expected: `street ${c.doc.streetname}, ${c.doc.city} (no ${c.number})`,
      right: verdict === 'right',
      got: brief(answer.tops[0], answer.status),
      ms: answer.ms,
    };
    return { outcome, verdict };
  });

  const rows = CLASSES.map((cls) => {
    const of = outcomes.filter((o) => o.outcome.cls === label(cls));
    const count = (v: Verdict) => of.filter((o) => o.verdict === v).length;
    return {
      door: cls.door,
      text: cls.text,
      addressOfTheStreet: count('address of the street'),
      nothing: count('nothing'),
      other: count('other'),
      ...classRow(
        label(cls),
        of.map((o) => o.outcome),
        TARGET,
        MISSES_SHOWN,
      ),
    };
  });
  for (const r of rows) logMisses(ctx, `unknown-number: ${r.cls}`, r.misses);
  const table = markdownTable(
    [
      'door',
      'text',
      'n',
      ...GROUPS.map((g) => `street first ${g} (n)`),
      'street first',
      'an address of the street',
      'nothing',
      'other',
      'target',
      'p50 ms',
      'ok',
    ],
    rows.map((r) => [
      r.door,
      r.text,
      r.n,
      ...GROUPS.map((g) => groupCell(r, g)),
      pct(r.rate),
      r.addressOfTheStreet,
      r.nothing,
      r.other,
      pct(r.target),
      r.p50,
      r.pass ? 'PASS' : 'FAIL',
    ]),
  );
  return {
    name: 'number not in the register',
    table,
    pass: rows.every((r) => r.pass),
    summary: { streets: streets.length, rows },
  };
}
