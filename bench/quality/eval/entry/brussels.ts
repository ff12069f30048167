/**
 * Brussels in French (issue 21): addresses whose street has a French name (the sample's Brussels slice: every one;
 * larger data: a seeded sample of `limit`), written as a French reader writes them, through the HTTP API.
 *   fr address          /search `Rue Élise 117, 1050 Ixelles`: top-1 is that street (any language's key), number
 *                       and city (a box number of the same number counts: the text names none)
 *   fr lower, no accents, no postcode   /search `rue elise 117 ixelles`, same truth
 *   fr street + municipality, no number /search `Rue Élise, Ixelles` / `rue elise ixelles` (any case, with and
 *                       without a comma, accents or not; each street of a city once): top-1 is that street place
 *   fr street, no number                /autocomplete `rue elise` (lower case, no accents) with the address as
 *                       the focus (a map-centred search box) puts that street of that city in the top 5
 *   municipality (fr/nl) each of the 19 Brussels municipalities by its French and by its Dutch name through the
 *                       hierarchy name filter: the municipality is in the answer
 *   reverse             /reverse at Brussels address points (every Brussels address, French name or not; a
 *                       seeded sample of `limit`): `areas.municipality` is named, and is the address's stored one
 * Targets: 99 %, 99 %, 99 %, 99 %, 100 %, 99.5 %.
 *
 * Misses (query, expected, got) go to stderr (logMisses) and to the results file.
 */
import type { AddressDoc, AreaDoc } from '../../../../core/elasticsearch/documents.js';
import { streetKey } from '../../../../core/text/normalise.js';
import { Rng } from '../rng.js';
import { caseVariant } from '../variants.js';
import { type EntryEvalContext, type EntryEvaluation, logMisses, markdownTable, type Miss, pct } from './context.js';

type Source = Pick<
  AddressDoc,
  'id' | 'street_key' | 'street_names' | 'number' | 'postcode' | 'city' | 'city_key' | 'location' | 'municipality_id'
>;
const FIELDS = [
  'id',
  'street_key',
  'street_names',
  'number',
  'postcode',
  'city',
  'city_key',
  'location',
  'municipality_id',
];
const CLASSES = [
  'fr address',
  'fr lower, no accents, no postcode',
  'fr street + municipality, no number',
  'fr street, no number (autocomplete)',
  'municipality by fr or nl name',
  'reverse: municipality named',
] as const;
type BrusselsClass = (typeof CLASSES)[number];
const TARGETS: Record<BrusselsClass, number> = {
  'fr address': 0.99,
  'fr lower, no accents, no postcode': 0.99,
  'fr street + municipality, no number': 0.99,
  'fr street, no number (autocomplete)': 0.99,
  'municipality by fr or nl name': 1,
  'reverse: municipality named': 0.995,
};
const plain = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** A seeded sample of `limit` addresses matching `query` (random_score over the id). */
async function sampleAddresses(ctx: EntryEvalContext, query: object): Promise<Source[]> {
  const res = await ctx.client.search<Source>({
    index: `${ctx.prefix}addresses`,
    size: Math.min(10_000, ctx.limit),
    _source: FIELDS,
    // `replace`: a filter-only query scores 0, which the default `multiply` would keep for every hit (index order).
    query: {
      function_score: { query, functions: [{ random_score: { seed: ctx.seed, field: 'id' } }], boost_mode: 'replace' },
    },
  });
  return res.hits.hits.flatMap((h) => (h._source ? [h._source] : []));
}

async function frenchAddresses(ctx: EntryEvalContext): Promise<Source[]> {
  const sample = await sampleAddresses(ctx, { exists: { field: 'other_street_keys' } });
  return sample.filter((a) => a.street_names?.fr);
}

/** Brussels' addresses: those under the Brussels-Capital Region (BE-BRU), French name or not. */
async function brusselsAddresses(ctx: EntryEvalContext): Promise<Source[]> {
  const region = await ctx.client.search<Pick<AreaDoc, 'id'>>({
    index: `${ctx.prefix}areas`,
    size: 1,
    _source: ['id'],
    query: { bool: { filter: [{ term: { level: 'province' } }, { term: { local_identifier: 'BE-BRU' } }] } },
  });
  const id = region.hits.hits[0]?._source?.id;
  return id ? sampleAddresses(ctx, { bool: { filter: [{ term: { province_id: id } }] } }) : [];
}

async function cityNames(ctx: EntryEvalContext): Promise<Map<string, Record<string, string>>> {
  const res = await ctx.client.search<Pick<AreaDoc, 'name' | 'names' | 'level'>>({
    index: `${ctx.prefix}areas`,
    size: 10_000,
    _source: ['name', 'names', 'level'],
    query: { bool: { filter: [{ term: { level: 'city' } }, { exists: { field: 'other_name_keys' } }] } },
  });
  return new Map(res.hits.hits.flatMap((h) => (h._source?.names ? [[h._source.name, h._source.names]] : [])));
}

/** "Rue Élise, Ixelles", "rue elise ixelles", "RUE ÉLISE IXELLES": as a French reader types a street and its commune. */
function streetText(fr: string, city: string, rng: Rng): string {
  const text = `${fr}${rng.chance(0.5) ? ',' : ''} ${city}`;
  const roll = rng.next();
  if (roll < 0.4) return text;
  if (roll < 0.8) return plain(text);
  return caseVariant(text, rng) ?? text;
}

export async function evaluateBrussels(ctx: EntryEvalContext): Promise<EntryEvaluation> {
  const [addresses, inBrussels, cities] = await Promise.all([
    frenchAddresses(ctx),
    brusselsAddresses(ctx),
    cityNames(ctx),
  ]);
  ctx.log(`brussels: ${addresses.length} addresses with a French street name, ${inBrussels.length} for reverse`);
  const asked = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<BrusselsClass, number>;
  const hits = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<BrusselsClass, number>;
  const misses: (Miss & { cls: BrusselsClass })[] = [];
  const score = (cls: BrusselsClass, right: boolean, query: string, expected: string, got: unknown) => {
    asked[cls]++;
    if (right) hits[cls]++;
    else misses.push({ cls, query, expected, got });
  };
  const sameAddress = (a: Source, answer: any) =>
    answer &&
    streetKey(answer.names?.streetname?.nl ?? answer.streetname) === a.street_key &&
    answer.number === a.number &&
    answer.postcode === a.postcode;
  const brief = (answer: any) =>
    answer ? `${answer.type ?? ''} ${answer.label ?? `${answer.streetname} ${answer.number} ${answer.city}`}` : null;

  const streetsAsked = new Set<string>();
  await ctx.runAll(addresses, async (a) => {
    const fr = a.street_names!.fr!;
    const cityFr = cities.get(a.city)?.fr ?? a.city;
    const expected = `${a.street_names?.nl ?? a.street_key} ${a.number}, ${a.postcode} ${a.city}`;
    const texts = {
      'fr address': `${fr} ${a.number}, ${a.postcode} ${cityFr}`,
      'fr lower, no accents, no postcode': plain(`${fr} ${a.number} ${cityFr}`),
    } as const;
    for (const [cls, text] of Object.entries(texts) as [keyof typeof texts, string][]) {
      const res = await ctx.api.get(`/search?q=${encodeURIComponent(text)}&size=1`);
      score(cls, sameAddress(a, res.json?.[0]), text, expected, brief(res.json?.[0]) ?? res.status);
    }

    // The street place, once per street of a city.
    const streetId = `${a.street_key}|${a.city_key}`;
    if (!streetsAsked.has(streetId)) {
      streetsAsked.add(streetId);
      const text = streetText(fr, cityFr, new Rng(`${ctx.seed}|brussels-street|${streetId}`));
      const res = await ctx.api.get(`/search?q=${encodeURIComponent(text)}&size=1`);
      const first = res.json?.[0];
      const right =
        first?.type === 'street' &&
        first.city === a.city &&
        streetKey(first.names?.nl ?? first.streetname) === a.street_key;
      score('fr street + municipality, no number', right, text, `street ${fr}, ${a.city}`, brief(first));
    }

    const focus = `&lat=${a.location.lat}&lon=${a.location.lon}`;
    const res = await ctx.api.get(`/autocomplete?q=${encodeURIComponent(plain(fr))}&size=5${focus}`);
    // The city follows the answer language (French here: the words typed were), so compare its Dutch name.
    const found = (res.json ?? []).some(
      (s: any) =>
        s.type === 'street' &&
        (s.names?.city?.nl ?? s.city) === a.city &&
        streetKey(s.names?.streetname?.nl ?? '') === a.street_key,
    );
    score('fr street, no number (autocomplete)', found, plain(fr), `street ${fr}, ${a.city}`, brief(res.json?.[0]));
  });

  // The 19 municipalities, by each name.
  const bru = await ctx.client.search<Pick<AreaDoc, 'id' | 'local_identifier' | 'names' | 'province_id'>>({
    index: `${ctx.prefix}areas`,
    size: 100,
    _source: ['id', 'local_identifier', 'names', 'province_id'],
    query: { bool: { filter: [{ term: { level: 'municipality' } }, { prefix: { local_identifier: '21' } }] } },
  });
  for (const m of bru.hits.hits.map((h) => h._source!)) {
    for (const name of [m.names?.fr, m.names?.nl].filter(Boolean) as string[]) {
      const res = await ctx.api.get(`/provinces/${m.province_id}/municipalities?name=${encodeURIComponent(name)}`);
      const found = (res.json ?? []).some((x: any) => x.local_identifier === m.local_identifier);
      score('municipality by fr or nl name', found, name, m.local_identifier, (res.json ?? []).length);
    }
  }

  // Reverse at the address points: a municipality named (the target), and whether it is the stored one.
  let sameMunicipality = 0;
  await ctx.runAll(inBrussels, async (a) => {
    const res = await ctx.api.get(`/reverse?lat=${a.location.lat}&lon=${a.location.lon}`);
    const municipality = res.json?.areas?.municipality;
    if (municipality?.id === a.municipality_id) sameMunicipality++;
    const at = `${a.location.lat},${a.location.lon}`;
    score('reverse: municipality named', !!municipality?.id, at, `municipality of ${a.id}`, municipality ?? res.status);
  });

  const rate = (cls: BrusselsClass) => hits[cls] / (asked[cls] || 1);
  const rows: (string | number)[][] = CLASSES.map((cls) => [
    cls,
    asked[cls],
    pct(rate(cls)),
    pct(TARGETS[cls]),
    rate(cls) >= TARGETS[cls] ? 'PASS' : 'FAIL',
  ]);
  const sameRate = sameMunicipality / (inBrussels.length || 1);
  rows.push(['reverse: municipality = stored municipality_id', inBrussels.length, pct(sameRate), '–', '']);
  for (const cls of CLASSES)
    logMisses(
      ctx,
      `brussels: ${cls}`,
      misses.filter((m) => m.cls === cls),
    );
  return {
    name: 'brussels',
    table: markdownTable(['class', 'cases', 'top-1 / found', 'target', 'ok'], rows),
    pass: CLASSES.every((cls) => rate(cls) >= TARGETS[cls]),
    summary: { asked, hits, reverseSameMunicipality: sameMunicipality, misses: misses.slice(0, 200) },
  };
}
