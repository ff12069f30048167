/**
 * The query classes of the eval and how one address becomes one query of a class. See the header of
 * bench/quality/qualityEval.ts for the definition of a correct answer.
 */
import { streetKey } from '../../../core/text/normalise.js';
import type { Addr } from './corpus.js';
import type { StreetKeyIndex } from './distance.js';
import { Rng } from './rng.js';
import {
  abbreviatable,
  abbreviatedVariant,
  caseVariant,
  inventedStreet,
  postcodeSpelling,
  punctuationVariant,
  suffixSpelling,
  typoVariant,
} from './variants.js';

export const CLASS_NAMES = [
  'exact',
  'case',
  'punctuation',
  'abbreviated',
  'typo1',
  'typo2',
  'suffix',
  'postcode',
  'postcode_number',
  'nonexistent',
  'missing_number',
] as const;
export type ClassName = (typeof CLASS_NAMES)[number];

export interface QueryBody {
  streetname?: string;
  number: string;
  suffix?: string;
  postcode?: string;
  city?: string;
}

export type Expectation =
  | {
      kind: 'address';
      /** Truth is looked up by street + number, or (postcode + number only) by postcode + number. */
      by: 'street' | 'postcode';
      streetKey: string;
      houseNumber: number;
      /** The suffix the right address has ("" for a bare number). */
      suffixKey: string;
      /** The query named a suffix: lookup narrows to it. A bare number: lookup returns every suffix. */
      suffixNamed: boolean;
      /** Set when the query carried the city: answers from other cities are wrong. */
      cityKey?: string;
      /** Set when the query carried the postcode. */
      postcodeKey?: string;
    }
  | {
      /** The street is right but has no such number: forward answers the nearest number on it, lookup []. */
      kind: 'nearest';
      streetKey: string;
      houseNumber: number;
      cityKey?: string;
    }
  | { kind: 'none' };

export interface EvalQuery {
  cls: ClassName;
  body: QueryBody;
  target: Addr;
  expect: Expectation;
}

export interface ClassSpec {
  name: ClassName;
  description: string;
  /** The target of the class (forward top-1, or the no_match rate for nonexistent streets). */
  target: number;
  eligible(a: Addr): boolean;
  make(a: Addr, rng: Rng, ctx: GenerationContext): EvalQuery | undefined;
}

export interface GenerationContext {
  streets: StreetKeyIndex;
  streetNames: readonly string[];
  numbersByStreet: ReadonlyMap<string, ReadonlySet<number>>;
  /** Typo draws thrown away because another street could answer them, per class. */
  redrawn: Map<ClassName, number>;
}

export const ONE_TYPO_MIN_KEY = 4;
export const TWO_TYPOS_MIN_KEY = 10;
/** Share of street-name queries that also carry the city. */
export const CITY_SHARE = 0.5;

const displayNumber = (a: Addr): string => `${a.number}${a.suffix}`;
/** A postcode a client can type: Dutch "1234AB" or Belgian "1234" (OSM's "2624BC;2624AW" lists are not). */
const VALID_POSTCODE_RE = /^[0-9]{4}(?:[a-z]{2})?$/;
const hasPostcode = (a: Addr): boolean => VALID_POSTCODE_RE.test(a.postcode_key);

function streetQuery(cls: ClassName, a: Addr, streetname: string, rng: Rng, extra: Partial<QueryBody> = {}): EvalQuery {
  const withCity = extra.postcode === undefined && a.city !== '' && rng.chance(CITY_SHARE);
  const body: QueryBody = { streetname, number: displayNumber(a), ...extra };
  if (withCity) body.city = a.city;
  return {
    cls,
    body,
    target: a,
    expect: {
      kind: 'address',
      by: 'street',
      streetKey: a.street_key,
      houseNumber: a.house_number,
      suffixKey: a.suffix_key,
      suffixNamed: a.suffix_key !== '',
      ...(withCity ? { cityKey: a.city_key } : {}),
      ...(extra.postcode !== undefined ? { postcodeKey: a.postcode_key } : {}),
    },
  };
}

/**
 * A typo'd name is only a fair question when its own street is the only street within that many edits that
 * has the house number (any city): otherwise another street is as close or closer and could rightly answer.
 * Look-alike streets without the number stay in: the matcher must pick the street that has it.
 */
function unambiguousTypo(cls: ClassName, a: Addr, edits: number, rng: Rng, ctx: GenerationContext): string | undefined {
  for (let attempt = 0; attempt < 10; attempt++) {
    const v = typoVariant(a.streetname, edits, rng);
    if (v === undefined) continue;
    const near = ctx.streets.within(streetKey(v), edits);
    if (near.every((n) => n.key === a.street_key || !ctx.numbersByStreet.get(n.key)?.has(a.house_number))) return v;
    ctx.redrawn.set(cls, (ctx.redrawn.get(cls) ?? 0) + 1);
  }
  return undefined;
}

/** Offsets tried for a house number the street does not have: mostly one or two off, sometimes more. */
const MISSING_OFFSETS = [1, -1, 2, -2, 1, -1, 2, -2, 3, -3, 4, -4, 6, -6, 10, -10];

export const CLASSES: readonly ClassSpec[] = [
  {
    name: 'exact',
    description: 'street and number as stored',
    target: 1,
    eligible: () => true,
    make: (a, rng) => streetQuery('exact', a, a.streetname, rng),
  },
  {
    name: 'case',
    description: 'lower, upper, random or inverted case',
    target: 1,
    eligible: (a) => /\p{L}/u.test(a.streetname),
    make: (a, rng) => {
      const v = caseVariant(a.streetname, rng);
      return v === undefined ? undefined : streetQuery('case', a, v, rng);
    },
  },
  {
    name: 'punctuation',
    description: 'diacritics stripped, punctuation added or dropped',
    target: 1,
    eligible: () => true,
    make: (a, rng) => {
      const v = punctuationVariant(a.streetname, rng);
      return v === undefined ? undefined : streetQuery('punctuation', a, v, rng);
    },
  },
  {
    name: 'abbreviated',
    description: 'str./ln/pln/gr/kd/wg/sngl, Burg./Prof./Dr./St./v./v.d./1e',
    target: 0.99,
    eligible: (a) => abbreviatable(a.streetname),
    make: (a, rng) => {
      const v = abbreviatedVariant(a.streetname, rng);
      return v === undefined ? undefined : streetQuery('abbreviated', a, v, rng);
    },
  },
  {
    name: 'typo1',
    description: `one typo after the first letter (keys of ${ONE_TYPO_MIN_KEY}+ letters)`,
    target: 0.97,
    eligible: (a) => a.street_key.length >= ONE_TYPO_MIN_KEY,
    make: (a, rng, ctx) => {
      const v = unambiguousTypo('typo1', a, 1, rng, ctx);
      return v === undefined ? undefined : streetQuery('typo1', a, v, rng);
    },
  },
  {
    name: 'typo2',
    description: `two typos after the first letter (keys of ${TWO_TYPOS_MIN_KEY}+ letters)`,
    target: 0.9,
    eligible: (a) => a.street_key.length >= TWO_TYPOS_MIN_KEY,
    make: (a, rng, ctx) => {
      const v = unambiguousTypo('typo2', a, 2, rng, ctx);
      return v === undefined ? undefined : streetQuery('typo2', a, v, rng);
    },
  },
  {
    name: 'suffix',
    description: 'number with a suffix, in another spelling (12 A, 12-a, 139 a 1, suffix field)',
    target: 1,
    eligible: (a) => a.suffix_key !== '',
    make: (a, rng) => {
      const spelt = suffixSpelling(a.number, a.letter, a.addition, rng);
      if (!spelt) return undefined;
      const q = streetQuery('suffix', a, a.streetname, rng);
      q.body.number = spelt.number;
      if (spelt.suffix !== undefined) q.body.suffix = spelt.suffix;
      return q;
    },
  },
  {
    name: 'postcode',
    description: 'street, number and postcode, with or without the space',
    target: 1,
    eligible: hasPostcode,
    make: (a, rng) => streetQuery('postcode', a, a.streetname, rng, { postcode: postcodeSpelling(a.postcode, rng) }),
  },
  {
    name: 'postcode_number',
    description: 'postcode and number only, no street',
    target: 1,
    eligible: hasPostcode,
    make: (a, rng) => ({
      cls: 'postcode_number',
      body: { postcode: postcodeSpelling(a.postcode, rng), number: displayNumber(a) },
      target: a,
      expect: {
        kind: 'address',
        by: 'postcode',
        streetKey: '',
        houseNumber: a.house_number,
        suffixKey: a.suffix_key,
        suffixNamed: a.suffix_key !== '',
        postcodeKey: a.postcode_key,
      },
    }),
  },
  {
    name: 'nonexistent',
    description: 'a street at edit distance >= 3 from every real street (forward must answer no_match)',
    target: 0.95,
    eligible: () => true,
    make: (a, rng, ctx) => {
      for (let attempt = 0; attempt < 30; attempt++) {
        const v = inventedStreet(a.streetname, ctx.streetNames, rng);
        const key = streetKey(v);
        if (key.length < 4 || ctx.streets.within(key, 2).length > 0) continue;
        const q = streetQuery('nonexistent', a, v, rng);
        return { ...q, expect: { kind: 'none' } };
      }
      return undefined;
    },
  },
  {
    name: 'missing_number',
    description: 'the right street with a number it does not have (in any city): nearest number, lookup []',
    target: 0.95,
    eligible: () => true,
    make: (a, rng, ctx) => {
      const numbers = ctx.numbersByStreet.get(a.street_key);
      const offsets = MISSING_OFFSETS.map((o) => ({ o, k: rng.next() })).sort((x, y) => x.k - y.k);
      for (const { o } of offsets) {
        const n = a.house_number + o;
        if (n < 1 || numbers?.has(n)) continue;
        const q = streetQuery('missing_number', a, a.streetname, rng);
        q.body.number = String(n);
        return {
          ...q,
          expect: {
            kind: 'nearest',
            streetKey: a.street_key,
            houseNumber: n,
            ...(q.body.city !== undefined ? { cityKey: a.city_key } : {}),
          },
        };
      }
      return undefined;
    },
  },
];

export function classRng(seed: string, cls: ClassName, id: string): Rng {
  return new Rng(`${seed}|${cls}|${id}|gen`);
}
