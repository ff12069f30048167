/**
 * GET /autocomplete against the Delft sample indexed by the real indexer. "Van der Mondestraat" is not in the
 * sample: Van der Waalsweg plays its part (a street whose name has several words).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutocompleteResponse, ErrorResponse } from '../../../../../src/schemas/responses.js';
import { startTestApi, type TestApi } from '../../../../support/api.js';
import { streetId } from '../../../../../core/elasticsearch/stableIds.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

async function suggest(query: string) {
  const res = await api.call('GET', `/autocomplete?${query}`);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return AutocompleteResponse.parse(res.body);
}
const q = (text: string, extra = '') => suggest(`q=${encodeURIComponent(text)}${extra}`);

/**
 * Search round trips to Elasticsearch so far, and the searches they carried (an `_msearch` carries several). Not
 * the index generation lookups, which a keystroke may set off in the background once a second.
 */
async function roundTrips() {
  const metrics = await (await fetch(`${api.url}/metrics`)).text();
  const trips = Number(/^geocoder_elasticsearch_batch_size_count (\d+)$/m.exec(metrics)?.[1]);
  const searches = Number(/^geocoder_elasticsearch_batch_size_sum (\d+)$/m.exec(metrics)?.[1]);
  return { trips, searches };
}
/** The answer, the Elasticsearch round trips it took and the searches they carried. */
async function tripsOf(text: string, extra = '') {
  const before = await roundTrips();
  const out = await q(text, extra);
  const after = await roundTrips();
  return { out, trips: after.trips - before.trips, searches: after.searches - before.searches };
}

describe('GET /autocomplete', () => {
  it('finds a street by the prefix of its first word', async () => {
    const out = await q('Mek');
    expect(out[0]).toMatchObject({ type: 'street', streetname: 'Mekelweg', city: 'Delft', number: '', postcode: '' });
    // The street's own id, the streets index's (GET /search names it so too).
    expect(out[0]?.id).toBe(streetId('mekelweg', 'delft'));
    expect(out[0]?.latitude).toBeGreaterThan(51.9);
  });

  it('finds a street by several words, the last unfinished', async () => {
    const out = await q('van der wa');
    expect(out[0]).toMatchObject({ type: 'street', streetname: 'Van der Waalsweg' });
  });

  it('finds a street by the prefix of a later word', async () => {
    const out = await q('waalsw');
    expect(out.map((s) => s.streetname)).toContain('Van der Waalsweg');
  });

  it('lists the addresses of the street once a number is typed', async () => {
    const out = await q('Mekelweg 8');
    expect(out.length).toBeGreaterThan(0);
    expect(out[0]).toMatchObject({ type: 'address', streetname: 'Mekelweg', number: '8', city: 'Delft' });
    expect(out[0]?.id).toBeTruthy();
    const suffixed = await q('Rotterdamseweg 139 a');
    expect(suffixed.length).toBeGreaterThan(1);
    for (const s of suffixed) expect(s).toMatchObject({ streetname: 'Rotterdamseweg', number: '139' });
    expect(suffixed.every((s) => s.suffix.startsWith('A'))).toBe(true);
  });

  it('puts the full "street number city" address first', async () => {
    const out = await q('Mekelweg 8 Delft');
    expect(out[0]).toMatchObject({ type: 'address', streetname: 'Mekelweg', number: '8', suffix: '', city: 'Delft' });
  });

  it('completes postcodes by prefix', async () => {
    const out = await q('2628');
    expect(out.length).toBe(10);
    for (const s of out) expect(s).toMatchObject({ type: 'postcode', city: 'Delft' });
    expect(out.every((s) => s.postcode.startsWith('2628'))).toBe(true);
    const narrower = await q('2628 c', '&size=5');
    expect(narrower.length).toBe(5);
    expect(narrower.every((s) => s.postcode.startsWith('2628C'))).toBe(true);
    expect(new Set(narrower.map((s) => s.postcode)).size).toBe(5);
  });

  it('tolerates one typo from four letters on', async () => {
    expect((await q('Mekelwge'))[0]).toMatchObject({ streetname: 'Mekelweg' });
    expect((await q('Rotteramseweg'))[0]).toMatchObject({ streetname: 'Rotterdamseweg' });
    expect((await q('Mekelwge 8'))[0]).toMatchObject({ type: 'address', streetname: 'Mekelweg', number: '8' });
  });

  it('asks for typos only when no street starts with what was typed (one round trip fewer per keystroke)', async () => {
    // One street starts with "mekelwe" (fewer than the 10 asked for): answered without the typo round.
    const correct = await tripsOf('Mekelwe');
    expect(correct.out.map((s) => s.streetname)).toEqual(['Mekelweg']);
    // None starts with "mekelwge": the typo round runs and finds it.
    const typo = await tripsOf('Mekelwge');
    expect(typo.out[0]).toMatchObject({ streetname: 'Mekelweg' });
    expect(typo.trips).toBe(correct.trips + 1);
  });

  it('asks one search per street keystroke that names no area, two (one round trip) where one is named exactly', async () => {
    // No area's name is or starts with "mekelw": the streets alone.
    const { out, trips, searches } = await tripsOf('Mekelw');
    expect(out[0]).toMatchObject({ type: 'street', streetname: 'Mekelweg' });
    expect({ trips, searches }).toEqual({ trips: 1, searches: 1 });
    // An area named exactly as typed comes first, from the places index, in the same round trip as the streets.
    const delft = await tripsOf('Delft');
    expect(delft.out[0]).toMatchObject({ type: 'city', city: 'Delft' });
    expect({ trips: delft.trips, searches: delft.searches }).toEqual({ trips: 1, searches: 2 });
    // A suburb, a municipality and a province are areas too.
    expect((await tripsOf('Wippol')).out.some((s) => s.type === 'suburb')).toBe(true);
    expect((await tripsOf('Zuid-Holl')).out[0]).toMatchObject({ type: 'province' });
  });

  it('asks for areas that only begin with the text where the streets leave them room', async () => {
    // "West" begins municipalities' names (Westervoort, ...), which would come after the streets: two streets fill
    // an answer of two, so no place search is sent at all.
    const full = await tripsOf('West', '&size=2');
    expect(full.out.map((s) => s.type)).toEqual(['street', 'street']);
    expect({ trips: full.trips, searches: full.searches }).toEqual({ trips: 1, searches: 1 });
    // One street for "Hoog" leaves room: the places are asked next, and Hoogeveen fills the second place.
    const room = await tripsOf('Hoog', '&size=2');
    expect(room.out.map((s) => s.type)).toEqual(['street', 'municipality']);
    expect({ trips: room.trips, searches: room.searches }).toEqual({ trips: 2, searches: 2 });
    // "Delf" (Delft, Delfgauw) with ten asked: its few streets, then the areas.
    const delf = await tripsOf('Delf');
    expect(delf.out.some((s) => s.type === 'city' && s.city === 'Delft')).toBe(true);
  });

  it('sends no place search for words whose only readings as an area are qualified by a name none of them has', async () => {
    // "Plein Delf" reads as "delf" (Delft begins so) in a place called "plein", or as a place "plein delf" or
    // "plein" in one called "delf": no area lies in any of them, so the place query's first round cannot find one.
    // The street alone, in one round trip, though its one street leaves room.
    const typing = await tripsOf('Plein Delf');
    expect(typing.out[0]).toMatchObject({ type: 'street', streetname: 'Plein Delftzicht' });
    expect(typing.out.length).toBeLessThan(10);
    expect({ trips: typing.trips, searches: typing.searches }).toEqual({ trips: 1, searches: 1 });
    // "Plein Delft": Delft exactly, in a place called "plein", which it is not in: no search of the places either,
    // nor of the streets: "Plein Delf" found fewer than ten, all there are, and the streets of "Plein Delft" are
    // among them (completeStreets.ts).
    const typed = await tripsOf('Plein Delft');
    expect(typed.out[0]).toMatchObject({ type: 'street', streetname: 'Plein Delftzicht' });
    expect(typed.out.every((s) => s.type === 'street')).toBe(true);
    expect({ trips: typed.trips, searches: typed.searches }).toEqual({ trips: 0, searches: 0 });
    // A qualifier an area does lie in keeps its search: "Delft Zuid-Holland" names the city.
    const qualified = await tripsOf('Delft Zuid-Holland');
    expect(qualified.out[0]).toMatchObject({ type: 'city', city: 'Delft' });
  });

  it('answers the first keystrokes once for everybody in a focus cell, without asking Elasticsearch again', async () => {
    // Two map centres 500 m apart in one cell (0.01 degrees): the second user's "me" is the first one's answer.
    const first = await tripsOf('me', '&lat=52.0001&lon=4.3701');
    expect(first.trips).toBeGreaterThan(0);
    expect(first.out.some((s) => s.type === 'street' && /^me/i.test(s.streetname))).toBe(true);
    const second = await tripsOf('me', '&lat=52.0049&lon=4.3749');
    expect(second.trips).toBe(0);
    expect(second.out).toEqual(first.out);
    // Another cell, another size, or a longer text is answered afresh.
    expect((await tripsOf('me', '&lat=52.0151&lon=4.3701')).trips).toBeGreaterThan(0);
    expect((await tripsOf('me', '&lat=52.0001&lon=4.3701&size=3')).trips).toBeGreaterThan(0);
    expect((await tripsOf('mekel', '&lat=52.0001&lon=4.3701')).trips).toBeGreaterThan(0);
  });

  it('ranks equal matches by nearness to lat/lon', async () => {
    // Streets whose name starts with "van": one match quality, so only nearness and size order them.
    const plain = (await q('van', '&size=20')).filter((s) => s.type === 'street' && /^van /i.test(s.streetname));
    expect(plain.length).toBeGreaterThan(3);
    const far = plain[plain.length - 1]!;
    const focused = await q('van', `&size=20&lat=${far.latitude}&lon=${far.longitude}`);
    expect(focused[0]).toMatchObject({ streetname: far.streetname });
    expect(plain[0]!.streetname).not.toBe(far.streetname);
  });

  it("answers [] to text without a letter or digit (the first keystroke of 't Zand)", async () => {
    expect(await q("'")).toEqual([]);
    expect(await q('--')).toEqual([]);
  });

  it('offers areas with the type /search gives them, an exact name first', async () => {
    const [delft] = await q('Delft');
    expect(delft).toMatchObject({ type: 'city', label: 'Delft, Zuid-Holland' });
    expect(delft?.id).toBeDefined();
    expect(delft?.bbox).toHaveLength(4);
    expect((await q('Zuid-Holl'))[0]).toMatchObject({ type: 'province' });
    expect((await q('Wippol')).some((s) => s.type === 'suburb')).toBe(true);
  });

  it('suggests a Belgian box as people type it', async () => {
    const out = await q('Nieuwstraat 8 bus 3');
    expect(out[0]).toMatchObject({ type: 'address', streetname: 'Nieuwstraat', number: '8', city: 'Brussel' });
    expect(out[0]?.suffix).toMatch(/3/);
  });

  it('honours size', async () => {
    expect((await q('s', '&size=3')).length).toBe(3);
  });

  it('refuses bad parameters with 400', async () => {
    for (const query of [
      '',
      'q=',
      'q=mek&size=0',
      'q=mek&size=21',
      'q=mek&lat=52',
      'q=mek&lat=95&lon=4',
      'q=mek&nmae=x',
      'q=mek&q=mel',
      `q=${'x'.repeat(101)}`,
    ]) {
      const res = await api.call('GET', `/autocomplete?${query}`);
      expect(res.status, query).toBe(400);
      expect(ErrorResponse.parse(res.body).error.code).toBe('invalid_request');
    }
  });

  it('answers long input with a typo instead of failing (the typo expression stays within the Elasticsearch limit)', async () => {
    for (const text of [
      'Rotterdamsewgxyzabcdefghij',
      'Professor Jonkerstraatweggetje',
      'Mekelweg Rotterdamsewegstraatje 8',
    ]) {
      const res = await api.call('GET', `/autocomplete?q=${encodeURIComponent(text)}`);
      expect(res.status, text).toBe(200);
    }
  });

  it('answers 401 without a key', async () => {
    const res = await fetch(`${api.url}/autocomplete?q=mek`);
    expect(res.status).toBe(401);
  });
});

describe('GET /autocomplete with SEARCH_TRACE (a debug switch)', () => {
  it('tells in a header what each answer waited for: its searches, their round trips and `took`', async () => {
    const traced = await startTestApi({ env: { SEARCH_TRACE: 'true' } });
    try {
      const res = await traced.call('GET', '/autocomplete?q=mekelweg');
      expect(res.status).toBe(200);
      const trace = res.headers.get('x-search-trace') ?? '';
      expect(trace).toMatch(/^ms=\d+\.\d\d;streets:[\d.]+\/[\d.]+\/[\d.]+\/\d+\/1$/);
    } finally {
      await traced.close();
    }
    // Off by default.
    expect((await api.call('GET', '/autocomplete?q=mekelweg')).headers.get('x-search-trace')).toBeNull();
  });
});
