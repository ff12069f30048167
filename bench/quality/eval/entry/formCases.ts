/**
 * The cases of the forms evaluations (issue 49), drawn seeded from the live index: addresses of the Dutch provinces
 * and of Brussels (two strata: a seeded pool of each, Brussels' without a box: a box is its own eval, `tails`), each
 * written in every form bench/quality/eval/addressForms.ts knows; per form at most half of `limit` from each stratum,
 * taken in the pool's seeded order from the addresses that have that form.
 *
 * Truth (the free-text eval's rule, bench/quality/eval/entry/freeText.ts, read from the index as ids so it holds in
 * every language and at every door): an answer is right when it is an address with the address's street key, number
 * and suffix key, and its city and postcode where the text names them (two addresses sharing all of those: either
 * is right); the no-number marker asks for the street: the streets index's record of that street key in that city.
 * A range is drawn only where the register has no address with the second number as the first's addition (or box).
 */
import type { AddressDoc, AreaDoc } from '../../../../core/elasticsearch/documents.js';
import { aliasName } from '../../../../core/elasticsearch/indexNames.js';
import { boxKeys } from '../../../../core/text/houseNumber.js';
import { normaliseText, streetKey } from '../../../../core/text/normalise.js';
import { type AddressForm, type FormAddress, type FormText, formTexts } from '../addressForms.js';
import { Rng } from '../rng.js';
import { type EntryEvalContext, percentile } from './context.js';

export type FormDoc = Pick<
  AddressDoc,
  | 'id'
  | 'streetname'
  | 'street_key'
  | 'street_names'
  | 'other_street_keys'
  | 'house_number'
  | 'number'
  | 'suffix'
  | 'suffix_key'
  | 'postcode'
  | 'postcode_key'
  | 'city'
  | 'city_key'
  | 'location'
>;
const FIELDS = [
  'id',
  'streetname',
  'street_key',
  'street_names',
  'other_street_keys',
  'house_number',
  'number',
  'suffix',
  'suffix_key',
  'postcode',
  'postcode_key',
  'city',
  'city_key',
  'location',
];

export type Stratum = 'NL' | 'Brussels';
export const STRATA: readonly Stratum[] = ['NL', 'Brussels'];
/** Addresses read per stratum before the forms are drawn from them (in seeded order). */
const POOL = 10_000;

export interface Pools {
  /** Each stratum's addresses, seeded order. */
  byStratum: Record<Stratum, FormDoc[]>;
  /** Brussels: the French name of each city (by its Dutch name) where it has one. */
  cityFr: Map<string, string>;
}

/** Each stratum's pool: the Dutch addresses and Brussels' (BE-BRU's) without a box, with a postcode and a city. */
export async function drawPools(
  ctx: Pick<EntryEvalContext, 'client' | 'prefix' | 'seed'>,
  salt: string,
): Promise<Pools> {
  const areas = aliasName(ctx.prefix, 'areas');
  const region = await ctx.client.search<Pick<AreaDoc, 'id'>>({
    index: areas,
    size: 1,
    _source: ['id'],
    query: { bool: { filter: [{ term: { level: 'province' } }, { term: { local_identifier: 'BE-BRU' } }] } },
  });
  const brussels = region.hits.hits[0]?._source?.id;
  const countries = await ctx.client.search<Pick<AreaDoc, 'id'>>({
    index: areas,
    size: 1,
    _source: ['id'],
    query: { bool: { filter: [{ term: { level: 'country' } }, { term: { local_identifier: 'NL' } }] } },
  });
  const netherlands = countries.hits.hits[0]?._source?.id;
  const written = [{ exists: { field: 'postcode_key' } }, { exists: { field: 'city_key' } }];
  const blank = [{ term: { postcode_key: '' } }, { term: { city_key: '' } }, { term: { street_key: '' } }];
  const pool = async (stratum: Stratum, filter: object[]): Promise<FormDoc[]> => {
    const res = await ctx.client.search<FormDoc>({
      index: aliasName(ctx.prefix, 'addresses'),
      size: POOL,
      _source: FIELDS,
      query: {
        function_score: {
          query: { bool: { filter: [...written, ...filter], must_not: blank } },
          functions: [{ random_score: { seed: `${ctx.seed}|${salt}|${stratum}`, field: 'id' } }],
          boost_mode: 'replace',
        },
      },
    });
    return res.hits.hits.flatMap((h) => (h._source ? [h._source] : []));
  };
  const [nl, bru, cityFr] = await Promise.all([
    netherlands ? pool('NL', [{ term: { country_id: netherlands } }]) : Promise.resolve([]),
    brussels
      ? pool('Brussels', [{ term: { province_id: brussels } }, { term: { suffix_key: '' } }])
      : Promise.resolve([]),
    frenchCityNames(ctx),
  ]);
  return { byStratum: { NL: nl, Brussels: bru }, cityFr };
}

async function frenchCityNames(ctx: Pick<EntryEvalContext, 'client' | 'prefix'>): Promise<Map<string, string>> {
  const res = await ctx.client.search<Pick<AreaDoc, 'name' | 'names'>>({
    index: aliasName(ctx.prefix, 'areas'),
    size: 10_000,
    _source: ['name', 'names'],
    query: { bool: { filter: [{ term: { level: 'city' } }, { exists: { field: 'other_name_keys' } }] } },
  });
  return new Map(
    res.hits.hits.flatMap((h) => (h._source?.names?.fr ? [[h._source.name, h._source.names.fr] as const] : [])),
  );
}

/** The address as the form builder takes it (French names only in Belgium: a Dutch city is named in Dutch). */
export const formAddress = (d: FormDoc, cityFr: Map<string, string>): FormAddress => {
  const belgian = /^\d{4}$/.test(d.postcode);
  return {
    streetname: d.streetname,
    number: d.number,
    suffix: d.suffix,
    postcode: d.postcode,
    city: d.city,
    streetFr: belgian ? d.street_names?.fr : undefined,
    cityFr: belgian ? cityFr.get(d.city) : undefined,
  };
};

/** The keys the street goes by (every language) and the city's (Dutch and French): "an address of that street". */
export function streetOf(d: FormDoc, cityFr: Map<string, string>) {
  const fr = cityFr.get(d.city);
  return {
    keys: new Set([d.street_key, ...(d.other_street_keys ?? [])]),
    cities: new Set([d.city_key, ...(fr ? [normaliseText(fr)] : [])]),
  };
}
export const namesStreet = (s: ReturnType<typeof streetOf>, street: string, city: string) =>
  s.keys.has(streetKey(street)) && s.cities.has(normaliseText(city));

export interface FormCase extends FormText {
  stratum: Stratum;
  doc: FormDoc;
  /** The address as the forms were written from it (its French names). */
  address: FormAddress;
  /** The right answers' ids: addresses (wants address), the street's records (wants street). */
  right: ReadonlySet<string>;
}

/** The streets index's ids of a street key in a city (one, but the count is not assumed). */
export async function streetIds(
  ctx: Pick<EntryEvalContext, 'client' | 'prefix'>,
  d: Pick<FormDoc, 'street_key' | 'city_key'>,
): Promise<Set<string>> {
  const res = await ctx.client.search<{ id: string }>({
    index: aliasName(ctx.prefix, 'streets'),
    size: 20,
    _source: ['id'],
    query: { bool: { filter: [{ term: { street_key: d.street_key } }, { term: { city_key: d.city_key } }] } },
  });
  return new Set(res.hits.hits.flatMap((h) => (h._source ? [h._source.id] : [])));
}

type TruthDoc = Pick<FormDoc, 'id' | 'street_key' | 'city_key' | 'postcode_key'>;

/** Every address with the address's number and suffix, on its street or under its postcode. */
async function namesakes(ctx: Pick<EntryEvalContext, 'client' | 'prefix'>, d: FormDoc): Promise<TruthDoc[]> {
  const same = [{ term: { house_number: d.house_number } }, { term: { suffix_key: d.suffix_key } }];
  const res = await ctx.client.search<TruthDoc>({
    index: aliasName(ctx.prefix, 'addresses'),
    size: 1000,
    _source: ['id', 'street_key', 'city_key', 'postcode_key'],
    query: {
      bool: {
        should: [
          { bool: { filter: [{ term: { street_key: d.street_key } }, ...same] } },
          { bool: { filter: [{ term: { postcode_key: d.postcode_key } }, ...same] } },
        ],
        minimum_should_match: 1,
      },
    },
  });
  return res.hits.hits.flatMap((h) => (h._source ? [h._source] : []));
}

/** Whether the register holds the range's second number as the first's addition or box on that street and city. */
async function rangeRegistered(ctx: Pick<EntryEvalContext, 'client' | 'prefix'>, d: FormDoc, to: number) {
  const res = await ctx.client.search({
    index: aliasName(ctx.prefix, 'addresses'),
    size: 0,
    track_total_hits: 1,
    query: {
      bool: {
        filter: [
          { term: { street_key: d.street_key } },
          { term: { city_key: d.city_key } },
          { term: { house_number: d.house_number } },
          { terms: { suffix_key: boxKeys(String(to)) } },
        ],
      },
    },
  });
  const total = res.hits.total;
  return (typeof total === 'number' ? total : (total?.value ?? 0)) > 0;
}

/** The forms' cases (every form the builder knows, or those `only` names), with their truth. */
export async function drawFormCases(
  ctx: EntryEvalContext,
  only?: (form: AddressForm) => boolean,
): Promise<{ cases: FormCase[]; pools: Pools }> {
  const pools = await drawPools(ctx, 'forms');
  const perStratum = Number.isFinite(ctx.limit) ? Math.ceil(ctx.limit / 2) : POOL;
  const drawn: Omit<FormCase, 'right'>[] = [];
  for (const stratum of STRATA) {
    const taken = new Map<AddressForm, number>();
    for (const d of pools.byStratum[stratum]) {
      const address = formAddress(d, pools.cityFr);
      for (const t of formTexts(address, new Rng(`${ctx.seed}|forms|${d.id}`))) {
        if (only && !only(t.form)) continue;
        const n = taken.get(t.form) ?? 0;
        if (n >= perStratum) continue;
        taken.set(t.form, n + 1);
        drawn.push({ ...t, stratum, doc: d, address });
      }
    }
  }
  const truth = new Map<string, Promise<TruthDoc[]>>();
  const streets = new Map<string, Promise<Set<string>>>();
  const cases = await ctx.runAll(drawn, async (c): Promise<FormCase | undefined> => {
    const d = c.doc;
    if (c.rangeTo !== undefined && (await rangeRegistered(ctx, d, c.rangeTo))) return undefined;
    if (c.wants === 'street') {
      const key = `${d.street_key}|${d.city_key}`;
      if (!streets.has(key)) streets.set(key, streetIds(ctx, d));
      return { ...c, right: await streets.get(key)! };
    }
    if (!truth.has(d.id)) truth.set(d.id, namesakes(ctx, d));
    const right = (await truth.get(d.id)!).filter(
      (t) =>
        (!c.gives.street || t.street_key === d.street_key) &&
        (!c.gives.city || t.city_key === d.city_key) &&
        (!c.gives.postcode || t.postcode_key === d.postcode_key),
    );
    return { ...c, right: new Set([d.id, ...right.map((t) => t.id)]) };
  });
  const kept = cases.filter((c): c is FormCase => c !== undefined);
  ctx.log(
    `forms: ${kept.length} texts from ${pools.byStratum.NL.length} Dutch and ${pools.byStratum.Brussels.length} Brussels addresses drawn`,
  );
  return { cases: kept, pools };
}

/** An answer's short form for the misses: "address Mekelweg 8, 2628CD Delft". */
export const brief = (top: { label: string } | undefined, status: number) =>
  top ? top.label : status === 200 ? '[]' : status;

/** The columns the rows split into: the Dutch provinces, Brussels typed in Dutch, Brussels typed in French. */
export const GROUPS = ['NL', 'Brussels nl', 'Brussels fr'] as const;
export type Group = (typeof GROUPS)[number];
export const groupOf = (stratum: Stratum, language: 'nl' | 'fr'): Group =>
  stratum === 'NL' ? 'NL' : language === 'fr' ? 'Brussels fr' : 'Brussels nl';

/** One asked text and whether its answer was right. */
export interface Outcome {
  cls: string;
  group: Group;
  text: string;
  expected: string;
  right: boolean;
  got: unknown;
  ms: number;
}

export interface ClassRow {
  cls: string;
  n: number;
  rate: number;
  /** Each group's cases and rate. */
  groups: Record<Group, { n: number; rate: number }>;
  target: number;
  p50: number;
  pass: boolean;
  misses: { query: string; expected: string; got: unknown }[];
}

/** A class's row: its rate overall and per group, against its target, with its first misses. */
export function classRow(cls: string, of: readonly Outcome[], target: number, shown: number): ClassRow {
  const rateOf = (os: readonly Outcome[]) => (os.length ? os.filter((o) => o.right).length / os.length : 1);
  const groups = Object.fromEntries(
    GROUPS.map((g) => {
      const os = of.filter((o) => o.group === g);
      return [g, { n: os.length, rate: rateOf(os) }];
    }),
  ) as ClassRow['groups'];
  const rate = rateOf(of);
  return {
    cls,
    n: of.length,
    rate,
    groups,
    target,
    p50: percentile(
      of.map((o) => o.ms),
      50,
    ),
    pass: rate >= target,
    misses: of
      .filter((o) => !o.right)
      .slice(0, shown)
      .map((o) => ({ query: o.text, expected: o.expected, got: o.got })),
  };
}

/** The expected address as the misses show it. */
export const expectedAddress = (d: FormDoc) =>
  `${d.streetname} ${d.number}${d.suffix}, ${d.postcode} ${d.city}${d.street_names?.fr ? ` (${d.street_names.fr})` : ''}`;

/** A group's cell: "99.50% (200)", or "–" when the class has no case there. */
export const groupCell = (r: Pick<ClassRow, 'groups'>, g: Group) =>
  r.groups[g].n ? `${(r.groups[g].rate * 100).toFixed(2)}% (${r.groups[g].n})` : '–';
