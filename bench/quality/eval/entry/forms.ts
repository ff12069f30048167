/**
 * GET /search, one class per form people type an address in (issue 49; the forms: bench/quality/eval/addressForms.ts,
 * the cases and their truth: formCases.ts): the Dutch provinces and Brussels both, the first result must be the
 * address (the no-number marker: the street). And Nominatim's structured form with the number first, as its clients
 * send it (`street=47 Boulevard du Régent&postalcode=1000&city=Bruxelles`): Dutch addresses, Brussels in French and
 * in Dutch; beside it the street before the number as a control.
 *
 * Target: 99 % every class (the for number first, abbreviations, ranges and brackets; the others read at
 * 99.7-100 % when it was opened).
 */
import { ADDRESS_FORMS, spacedPostcode } from '../addressForms.js';
import { type EntryEvalContext, type EntryEvaluation, logMisses, markdownTable, MISSES_SHOWN, pct } from './context.js';
import { doors } from './doors.js';
import {
  brief,
  classRow,
  drawFormCases,
  expectedAddress,
  type FormCase,
  GROUPS,
  groupCell,
  groupOf,
  type Outcome,
} from './formCases.js';

const TARGET = 0.99;
const STRUCTURED = [
  'structured "N street" (NL)',
  'structured "N street" (Brussels, fr)',
  'structured "N street" (Brussels, nl)',
  'structured "street N" (control)',
] as const;

/** The structured requests of a number-first case: the number first in each language, and the control. */
type Structured = { street: string; postalcode: string; city: string };
function structuredOf(c: FormCase): { cls: (typeof STRUCTURED)[number]; params: Structured }[] {
  const d = c.doc;
  const house = `${d.number}${d.suffix}`;
  const postalcode = spacedPostcode(d.postcode);
  const out: { cls: (typeof STRUCTURED)[number]; params: Structured }[] = [];
  const nl = { street: `${house} ${d.streetname}`, postalcode, city: d.city };
  if (c.stratum === 'NL') out.push({ cls: STRUCTURED[0], params: nl });
  else {
    const { streetFr, cityFr } = c.address;
    if (streetFr)
      out.push({ cls: STRUCTURED[1], params: { street: `${house} ${streetFr}`, postalcode, city: cityFr ?? d.city } });
    out.push({ cls: STRUCTURED[2], params: nl });
  }
  out.push({ cls: STRUCTURED[3], params: { street: `${d.streetname} ${house}`, postalcode, city: d.city } });
  return out;
}

export async function evaluateForms(ctx: EntryEvalContext): Promise<EntryEvaluation> {
  const { cases } = await drawFormCases(ctx);
  for (const form of ADDRESS_FORMS) ctx.log(`forms: ${form}, e.g. ${cases.find((c) => c.form === form)?.text}`);

  const searched = await ctx.runAll(cases, async (c): Promise<Outcome> => {
    const answer = await doors.search(ctx.api, c.text);
    const first = answer.tops[0];
    const right = !!first && first.kind === c.wants && c.right.has(first.id);
    const expected = c.wants === 'street' ? `street ${c.doc.streetname}, ${c.doc.city}` : expectedAddress(c.doc);
    return {
      cls: c.form,
      group: groupOf(c.stratum, c.language),
      text: c.text,
      expected,
      right,
      got: brief(first, answer.status),
      ms: answer.ms,
    };
  });

  const structured = cases
    .filter((c) => c.form === 'number first')
    .flatMap((c) => structuredOf(c).map((s) => ({ c, ...s })));
  const asked = await ctx.runAll(structured, async ({ c, cls, params }): Promise<Outcome> => {
    const answer = await doors.nominatim(ctx.api, params);
    const first = answer.tops[0];
    return {
      cls,
      group: c.stratum === 'NL' ? 'NL' : cls.includes('fr)') ? 'Brussels fr' : 'Brussels nl',
      text: new URLSearchParams(params).toString(),
      expected: expectedAddress(c.doc),
      right: !!first && first.kind === 'address' && c.right.has(first.id),
      got: brief(first, answer.status),
      ms: answer.ms,
    };
  });

  const rows = [
    ...ADDRESS_FORMS.map((form) => ({
      door: '/search',
      ...classRow(
        form,
        searched.filter((o) => o.cls === form),
        TARGET,
        MISSES_SHOWN,
      ),
    })),
    ...STRUCTURED.map((cls) => ({
      door: '/nominatim/search',
      ...classRow(
        cls,
        asked.filter((o) => o.cls === cls),
        TARGET,
        MISSES_SHOWN,
      ),
    })),
  ];
  for (const r of rows) logMisses(ctx, `forms: ${r.door} ${r.cls}`, r.misses);
  // The abbreviations one by one: which ones the reader knows.
  const abbreviations = [
    ...new Set(cases.filter((c) => c.form === 'abbreviated street type').map((c) => c.detail!)),
  ].sort();
  const byAbbreviation = abbreviations.map((detail) => {
    const of = searched.filter((o, i) => cases[i]!.form === 'abbreviated street type' && cases[i]!.detail === detail);
    return { detail, n: of.length, rate: of.filter((o) => o.right).length / of.length };
  });

  const table = [
    markdownTable(
      ['door', 'form', 'n', ...GROUPS.map((g) => `top-1 ${g} (n)`), 'top-1', 'target', 'p50 ms', 'ok'],
      rows.map((r) => [
        r.door,
        r.cls,
        r.n,
        ...GROUPS.map((g) => groupCell(r, g)),
        pct(r.rate),
        pct(r.target),
        r.p50,
        r.pass ? 'PASS' : 'FAIL',
      ]),
    ),
    markdownTable(
      ['abbreviation (/search)', 'n', 'top-1'],
      byAbbreviation.map((a) => [a.detail, a.n, pct(a.rate)]),
    ),
  ].join('\n\n');
  return {
    name: 'forms (search, Nominatim structured)',
    table,
    pass: rows.every((r) => r.pass),
    summary: { rows, byAbbreviation },
  };
}
