import { describe, expect, it } from 'vitest';
import { AutocompleteQueryParams } from '../../../../../src/schemas/requests.js';
import { parseAutocompleteQuery } from '../../../../../src/features/autocomplete/autocompleteInput.js';
import {
  addressPrefixRequest,
  fuzzyStreetRequest,
  postcodePrefixRequest,
  qualityOfScore,
  streetPrefixRequest,
} from '../../../../../src/features/autocomplete/autocompleteBodies.js';
import {
  fuzzyPhraseRegexp,
  fuzzyPrefixRegexp,
  MAX_REGEX_LENGTH,
  mayBeTypo,
} from '../../../../../src/features/autocomplete/typoRegexp.js';

const parse = (q: string, extra: { lat?: number; lon?: number } = {}) =>
  parseAutocompleteQuery({ q, size: 10, ...extra });

describe('parseAutocompleteQuery', () => {
  it('reads words as a street, the last one unfinished', () => {
    expect(parse('Mek')).toMatchObject({ kind: 'street', words: ['mek'], key: 'mek' });
    expect(parse('Van der Mo')).toMatchObject({ kind: 'street', words: ['van', 'der', 'mo'], key: 'vandermo' });
    expect(parse("'s-Gravenh")).toMatchObject({ kind: 'street', words: ['s', 'gravenh'], key: 'sgravenh' });
  });

  it('reads a number after the street as a house number, short words after it as its suffix, longer ones as the city', () => {
    expect(parse('Mekelweg 8')).toMatchObject({
      kind: 'address',
      words: ['mekelweg'],
      houseNumber: 8,
      suffixPrefix: '',
      city: '',
    });
    expect(parse('Mekelweg 8a')).toMatchObject({ kind: 'address', houseNumber: 8, suffixPrefix: 'a' });
    expect(parse('Rotterdamseweg 139 A-1 Delft')).toMatchObject({
      kind: 'address',
      houseNumber: 139,
      suffixPrefix: 'a1',
      city: 'delft',
    });
    expect(parse('Mekelweg 8 del')).toMatchObject({ kind: 'address', houseNumber: 8, suffixPrefix: '', city: 'del' });
    // Belgian box numbers carry digits: the suffix, never the city.
    expect(parse('Margaretasquare 1-B087 Brussel')).toMatchObject({
      kind: 'address',
      houseNumber: 1,
      suffixPrefix: 'b087',
      city: 'brussel',
    });
    expect(parse('Franz Merjaystraat 50-2E Elsene')).toMatchObject({ suffixPrefix: '2e', city: 'elsene' });
    // Readings tried only when the first finds nothing.
    expect(parse('Havenstraat 35 Ter Apel')).toMatchObject({
      suffixPrefix: 'ter',
      city: 'apel',
      otherReadings: [{ houseNumber: 35, suffixPrefix: '', city: 'ter apel' }],
    });
    expect(parse('Clayslaan 17-ETRC Schaarbeek')).toMatchObject({
      suffixPrefix: '',
      city: 'etrc schaarbeek',
      otherReadings: [{ houseNumber: 17, suffixPrefix: 'etrc', city: 'schaarbeek' }],
    });
    expect(parse('Punter 37 24 Lelystad')).toMatchObject({
      words: ['punter'],
      houseNumber: 37,
      otherReadings: [
        { words: ['punter'], houseNumber: 37, suffixPrefix: '', city: '24 lelystad' },
        { words: ['punter', '37'], key: 'punter37', houseNumber: 24, suffixPrefix: '', city: 'lelystad' },
      ],
    });
    expect(parse('Mekelweg 8 Delft')).toMatchObject({ otherReadings: [] });
    // A number in the name itself comes first: not a house number.
    expect(parse('1e Hoogstraat')).toMatchObject({ kind: 'street', words: ['eerste', 'hoogstraat'] });
  });

  it('reads postcode prefixes, Dutch and Belgian', () => {
    expect(parse('2628')).toMatchObject({ kind: 'postcode', prefix: '2628' });
    expect(parse('2628 c')).toMatchObject({ kind: 'postcode', prefix: '2628c' });
    expect(parse('2628CD')).toMatchObject({ kind: 'postcode', prefix: '2628cd' });
    expect(parse('1000')).toMatchObject({ kind: 'postcode', prefix: '1000' });
    expect(parse('262')).toMatchObject({ kind: 'street' });
  });

  it('keeps the focus only when both coordinates are given', () => {
    expect(parse('mek', { lat: 52, lon: 4.3 })?.focus).toEqual({ lat: 52, lon: 4.3 });
    expect(parse('mek')?.focus).toBeUndefined();
    expect(parse('--')).toBeUndefined();
  });
});

describe('autocomplete requests', () => {
  it('matches the typed words as a prefix of the street words on the streets index, quality by the street key', () => {
    const q = parse('van der mo');
    if (q?.kind !== 'street') throw new Error('street expected');
    const req = streetPrefixRequest(q);
    const body = JSON.stringify(req);
    expect(body).toContain('"prefix":{"street_words":"van der mo"}');
    // The other languages' names match and score alike (`rue n` finds Nieuwstraat / Rue Neuve).
    expect(body).toContain('"prefix":{"other_street_words":"van der mo"}');
    const either = (kind: string, field = '') =>
      `{"bool":{"should":[{"${kind}":{"street_key${field}":"vandermo"}},{"${kind}":{"other_street_keys${field}":"vandermo"}}],"minimum_should_match":1}}`;
    expect(body).toContain(`"constant_score":{"filter":${either('term')},"boost":2}`);
    // The keys' prefixes are terms of their own (`.starts`, mappings/streets.json): no expansion per request.
    expect(body).toContain(`"constant_score":{"filter":${either('prefix', '.starts')},"boost":1}`);
    expect(req.sort).toEqual(['_score', { address_count: 'desc' }, { street_key: 'asc' }, { city_key: 'asc' }]);
    expect(req.size).toBe(10);
    // Several words never match the glued name (`de k` is not Dekkerstraat); one long word does.
    expect(body).not.toContain('"prefix":{"street_key.starts":"vandermo"}}],"minimum_should_match"');
    const glued = parse('vandermo');
    if (glued?.kind !== 'street') throw new Error('street expected');
    expect(JSON.stringify(streetPrefixRequest(glued).query)).toContain(
      '{"prefix":{"other_street_words":"vandermo"}},{"prefix":{"street_key.starts":"vandermo"}}]',
    );
  });

  it('reads the match quality from the score', () => {
    expect(qualityOfScore(3)).toBe('exact');
    expect(qualityOfScore(1)).toBe('starts');
    expect(qualityOfScore(0)).toBe('word');
  });

  it('sorts by the nearest sampled point with a focus, and adds a radius for one or two letters only', () => {
    const short = parse('m', { lat: 52, lon: 4 });
    const long = parse('mek', { lat: 52, lon: 4 });
    if (short?.kind !== 'street' || long?.kind !== 'street') throw new Error('street expected');
    expect(JSON.stringify(streetPrefixRequest(short))).toContain('geo_distance');
    expect(JSON.stringify(streetPrefixRequest(long).query)).not.toContain('geo_distance');
    expect(streetPrefixRequest(long).sort).toContainEqual({
      _geo_distance: { points: { lat: 52, lon: 4 }, order: 'asc', unit: 'm', mode: 'min' },
    });
    expect(streetPrefixRequest(long)._source).toContain('points');
  });

  it('looks for one typo per word, in the order typed, with one expression over the street words', () => {
    const re = new RegExp(`^${fuzzyPhraseRegexp(['van', 'der', 'walsw'])}$`);
    for (const term of ['van der waalsweg', 'van der walsweg', 'van der wlasweg'])
      expect(re.test(term), term).toBe(true);
    expect(re.test('van de waalsweg')).toBe(false);
    const two = new RegExp(`^${fuzzyPhraseRegexp(['mekelwge', 'delf'])}$`);
    expect(two.test('mekelweg delft')).toBe(true);
    expect(two.test('mekelweg')).toBe(false);
    const q = parse('Rotteramseweg');
    if (q?.kind !== 'street') throw new Error('street expected');
    expect(JSON.stringify(fuzzyStreetRequest(q).query)).toContain('"regexp":{"street_words"');
    // Every language's words, with the same expression: a French name typed with a typo is found too.
    expect(JSON.stringify(fuzzyStreetRequest(q).query)).toContain('"regexp":{"other_street_words"');
    const address = parse('rue nauve 1');
    if (address?.kind !== 'address') throw new Error('address expected');
    const fuzzy = JSON.stringify(addressPrefixRequest(address, true).query);
    expect(fuzzy).toContain('"regexp":{"street_text"');
    expect(fuzzy).toContain('"regexp":{"other_street_text"');
  });

  it('filters addresses by number, suffix prefix and city prefix', () => {
    const q = parse('Mekelweg 8a del');
    if (q?.kind !== 'address') throw new Error('address expected');
    const body = JSON.stringify(addressPrefixRequest(q));
    expect(body).toContain('"term":{"house_number":8}');
    expect(body).toContain('"prefix":{"suffix_key":"a"}');
    expect(body).toContain('"prefix":{"city_key":"del"}');
  });

  it('keeps every search to the bounds asked for (country ids, box), none without', () => {
    const bounds = { countryIds: ['nl-id'], bbox: [4.2, 51.9, 4.5, 52.1] as const };
    const bodies = (b?: typeof bounds) => {
      const ask = (q: string) => parseAutocompleteQuery({ q, size: 10, bounds: b });
      const [street, address, postcode] = [ask('Mekel'), ask('Mekelweg 8'), ask('2628')];
      if (street?.kind !== 'street' || address?.kind !== 'address' || postcode?.kind !== 'postcode') {
        throw new Error('street, address and postcode expected');
      }
      return [
        streetPrefixRequest(street),
        fuzzyStreetRequest(street),
        addressPrefixRequest(address),
        addressPrefixRequest(address, true),
        postcodePrefixRequest(postcode),
      ].map((body) => JSON.stringify(body.query));
    };
    for (const body of bodies(bounds)) {
      expect(body).toContain('"terms":{"country_id":["nl-id"]}');
      expect(body).toContain('"geo_bounding_box":{"location":{"top_left":{"lat":52.1,"lon":4.2}');
    }
    for (const body of bodies()) expect(body).not.toMatch(/country_id|geo_bounding_box/);
  });

  it('builds a one-edit prefix expression that keeps the first letter', () => {
    const re = new RegExp(`^${fuzzyPrefixRegexp('mekle').replace(/\[a-z0-9\]/g, '[a-z0-9]')}$`);
    for (const word of ['mekelweg', 'mekleweg', 'mekel', 'meklweg']) expect(re.test(word), word).toBe(true);
    expect(re.test('nekelweg')).toBe(false);
    expect(re.test('mxxlweg')).toBe(false);
    expect(mayBeTypo(['van', 'de'])).toBe(false);
    expect(mayBeTypo(['mekl'])).toBe(true);
  });
});

describe('AutocompleteQueryParams', () => {
  const ok = (query: Record<string, string>) => AutocompleteQueryParams.safeParse(query).success;
  it('accepts q with size and a focus', () => {
    expect(AutocompleteQueryParams.parse({ q: 'mek' })).toEqual({ q: 'mek', size: 10, format: 'json' });
    expect(ok({ q: 'mek', size: '20', lat: '52', lon: '4.3' })).toBe(true);
  });
  it('refuses what it cannot answer', () => {
    expect(ok({})).toBe(false);
    expect(ok({ q: '' })).toBe(false);
    // Accepted (and answered []): a search box sends the first keystroke of `'t Zand` (the search-box issue).
    expect(ok({ q: '--' })).toBe(true);
    expect(ok({ q: 'x'.repeat(101) })).toBe(false);
    expect(ok({ q: 'mek', size: '0' })).toBe(false);
    expect(ok({ q: 'mek', size: '21' })).toBe(false);
    expect(ok({ q: 'mek', lat: '52' })).toBe(false);
    expect(ok({ q: 'mek', lat: '91', lon: '4' })).toBe(false);
    expect(ok({ q: 'mek', nmae: 'x' })).toBe(false);
  });
});

describe('abbreviations in type-ahead', () => {
  it('expands finished words and keeps the unfinished one as typed', () => {
    expect(parse('Prof. Kr')).toMatchObject({ kind: 'street', words: ['professor', 'kr'], key: 'professorkr' });
    expect(parse('Prof. Krausstr 5')).toMatchObject({ kind: 'address', words: ['professor', 'krausstraat'] });
    expect(parse('kerkpl')).toMatchObject({ words: ['kerkpl'] });
  });
});

describe('typo rounds on long input', () => {
  it('never builds an expression Elasticsearch refuses (index.max_regex_length 1000)', () => {
    for (const text of ['gysbert japicxstrjitte', 'scheepvaartstraat', 'verlengde grachtstraat', 'a'.repeat(60)]) {
      const words = text.split(' ');
      const regexp = fuzzyPhraseRegexp(words);
      if (regexp !== undefined) expect(regexp.length).toBeLessThanOrEqual(MAX_REGEX_LENGTH);
      expect(mayBeTypo(words)).toBe(regexp !== undefined);
    }
    // A long phrase keeps the typo in its last word rather than dropping the round.
    expect(fuzzyPhraseRegexp(['gysbert', 'japicxstrjit'])).toMatch(/^gysbert /);
  });
});
