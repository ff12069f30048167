/** Scoring of one answered query and the per-class summary (pure). */
import type { ClassName, EvalQuery } from './classes.js';
import { type TruthDoc, TruthGroups } from './corpus.js';

export interface ForwardAnswer {
  status: number;
  id?: string;
  streetname?: string;
  number?: string;
  suffix?: string;
  city?: string;
  postcode?: string;
  confidence?: number;
  match?: { street: string; number: string; postcode: string };
  code?: string;
  ms: number;
}

export interface LookupAnswer {
  status: number;
  ids: string[];
  ms: number;
}

export interface Scored {
  forwardCorrect: boolean;
  /** Forward answered 404 no_match. */
  noMatch: boolean;
  lookupEmpty: boolean;
  recall: number | undefined;
  precision: number | undefined;
  truthSize: number;
  error?: string;
}

function candidates(q: EvalQuery, groups: TruthGroups): TruthDoc[] {
  if (q.expect.kind !== 'address') return [];
  const e = q.expect;
  const group =
    e.by === 'street'
      ? groups.byStreet.get(TruthGroups.streetGroup(e.streetKey, e.houseNumber))
      : groups.byPostcode.get(TruthGroups.postcodeGroup(e.postcodeKey ?? '', e.houseNumber));
  return (group ?? []).filter(
    (d) =>
      (e.by === 'postcode' || d.street_key === e.streetKey) &&
      (e.cityKey === undefined || d.city_key === e.cityKey) &&
      (e.postcodeKey === undefined || d.postcode_key === e.postcodeKey),
  );
}

/** Ids a correct forward answer may have, and the lookup truth set. */
export function truthOf(q: EvalQuery, groups: TruthGroups): { forward: Set<string>; lookup: Set<string> } {
  if (q.expect.kind === 'nearest') {
    // The nearest existing number on the street (within the city when the query named it); ties either way.
    const e = q.expect;
    const docs = (groups.wholeStreet.get(e.streetKey) ?? []).filter(
      (d) => e.cityKey === undefined || d.city_key === e.cityKey,
    );
    const gap = Math.min(...docs.map((d) => Math.abs(d.house_number - e.houseNumber)));
    return {
      forward: new Set(docs.filter((d) => Math.abs(d.house_number - e.houseNumber) === gap).map((d) => d.id)),
      lookup: new Set(),
    };
  }
  if (q.expect.kind !== 'address') return { forward: new Set(), lookup: new Set() };
  const e = q.expect;
  const docs = candidates(q, groups);
  return {
    forward: new Set(docs.filter((d) => d.suffix_key === e.suffixKey).map((d) => d.id)),
    lookup: new Set(docs.filter((d) => !e.suffixNamed || d.suffix_key === e.suffixKey).map((d) => d.id)),
  };
}

export function score(q: EvalQuery, groups: TruthGroups, fwd: ForwardAnswer, look: LookupAnswer): Scored {
  let error: string | undefined;
  if (fwd.status !== 200 && !(fwd.status === 404 && fwd.code === 'no_match')) error = `forward HTTP ${fwd.status}`;
  if (look.status !== 200) error = `${error ? `${error}, ` : ''}lookup HTTP ${look.status}`;
  const noMatch = fwd.status === 404 && fwd.code === 'no_match';
  const lookupEmpty = look.status === 200 && look.ids.length === 0;
  if (q.expect.kind === 'none') {
    return {
      forwardCorrect: noMatch,
      noMatch,
      lookupEmpty,
      recall: undefined,
      precision: undefined,
      truthSize: 0,
      error,
    };
  }
  if (q.expect.kind === 'nearest') {
    const truth = truthOf(q, groups);
    if (truth.forward.size === 0) error = `${error ? `${error}, ` : ''}empty truth set (eval bug)`;
    const forwardCorrect = fwd.status === 200 && fwd.id !== undefined && truth.forward.has(fwd.id);
    return { forwardCorrect, noMatch, lookupEmpty, recall: undefined, precision: undefined, truthSize: 0, error };
  }
  const truth = truthOf(q, groups);
  if (truth.forward.size === 0) error = `${error ? `${error}, ` : ''}empty truth set (eval bug)`;
  const forwardCorrect = fwd.status === 200 && fwd.id !== undefined && truth.forward.has(fwd.id);
  const hit = look.ids.filter((id) => truth.lookup.has(id)).length;
  return {
    forwardCorrect,
    noMatch,
    lookupEmpty,
    recall: truth.lookup.size > 0 ? hit / truth.lookup.size : undefined,
    precision: look.ids.length > 0 ? hit / look.ids.length : undefined,
    truthSize: truth.lookup.size,
    error,
  };
}

export interface ClassSummary {
  class: ClassName;
  n: number;
  target: number;
  /** Forward top-1 accuracy (for nonexistent: the no_match rate). */
  forwardTop1: number;
  /** Mean per-query recall of /lookup/street (nonexistent: share of empty answers). */
  lookupRecall: number;
  /** Mean per-query precision over the lookups that returned something. */
  lookupPrecision: number;
  /** Lookups whose answer set equals the truth set exactly. */
  lookupExact: number;
  forwardP50ms: number;
  forwardP95ms: number;
  lookupP50ms: number;
  /** Counts of forward match codes among the answers (street:number), e.g. "fuzzy:exact". */
  matchCodes: Record<string, number>;
  /** Wrong forward answers that claimed a confidence of 0.9 or more. */
  confidentWrong: number;
  errors: number;
  pass: boolean;
  skipped: number;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export function summarise(
  cls: ClassName,
  target: number,
  rows: { q: EvalQuery; s: Scored; fwd: ForwardAnswer; look: LookupAnswer }[],
  skipped: number,
): ClassSummary {
  const n = rows.length;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  // nonexistent and missing_number: the right lookup answer is [], shown as the share of empty answers.
  const isNone = rows[0]?.q.expect.kind === 'none' || rows[0]?.q.expect.kind === 'nearest';
  const forwardTop1 = mean(rows.map((r) => (r.s.forwardCorrect ? 1 : 0)));
  const recalls = rows.flatMap((r) => (r.s.recall === undefined ? [] : [r.s.recall]));
  const precisions = rows.flatMap((r) => (r.s.precision === undefined ? [] : [r.s.precision]));
  const matchCodes: Record<string, number> = {};
  for (const r of rows) {
    const code = r.fwd.match ? `${r.fwd.match.street}:${r.fwd.match.number}` : (r.fwd.code ?? String(r.fwd.status));
    matchCodes[code] = (matchCodes[code] ?? 0) + 1;
  }
  const lookupRecall = isNone ? mean(rows.map((r) => (r.s.lookupEmpty ? 1 : 0))) : mean(recalls);
  return {
    class: cls,
    n,
    target,
    forwardTop1,
    lookupRecall,
    lookupPrecision: isNone ? 0 : mean(precisions),
    lookupExact: isNone
      ? 0
      : mean(rows.map((r) => (r.s.recall === 1 && (r.s.precision === 1 || r.s.truthSize === 0) ? 1 : 0))),
    forwardP50ms: percentile(
      rows.map((r) => r.fwd.ms),
      50,
    ),
    forwardP95ms: percentile(
      rows.map((r) => r.fwd.ms),
      95,
    ),
    lookupP50ms: percentile(
      rows.map((r) => r.look.ms),
      50,
    ),
    matchCodes,
    confidentWrong: rows.filter((r) => !isNone && !r.s.forwardCorrect && (r.fwd.confidence ?? 0) >= 0.9).length,
    errors: rows.filter((r) => r.s.error !== undefined).length,
    pass: n > 0 && forwardTop1 >= target,
    skipped,
  };
}
