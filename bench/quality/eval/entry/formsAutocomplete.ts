/**
 * GET /autocomplete, one class per form people type an address in (issue 49; the forms:
 * bench/quality/eval/addressForms.ts, the cases and their truth: formCases.ts, the Dutch provinces and Brussels):
 * the address must be among the first five suggestions (as autocomplete.ts judges an address suggestion: by its id;
 * here any address the text names equally well). Each form is typed three ways:
 *
 *   in full                  the whole text, no focus: the text alone must find it (as autocomplete.ts's full
 *                            addresses)
 *   cut behind the number    the text a keystroke before the rest (`Contrabasweg 132`, `40 Avenue De Fré`,
 *                            `Uithuizen, Departementsstraat 73`, `9411 xj 3`) with a focus within 3 km of the
 *                            address: a map-centred type-ahead (as autocomplete.ts types streets on large data),
 *                            since `Hoofdstraat 17` alone names dozens of addresses
 *   cut, no focus            the same cut text without a focus: how many such texts the text alone settles (no
 *                            target; where it differs from the focused row, the focus did the work)
 *
 * The no-number marker names no address and is not typed here.
 *
 * Targets (the issue's): in full >= 99 %, cut behind the number >= 97 %.
 */
import { ADDRESS_FORMS } from '../addressForms.js';
import { Rng } from '../rng.js';
import { nearby } from './autocomplete.js';
import { type EntryEvalContext, type EntryEvaluation, logMisses, markdownTable, MISSES_SHOWN, pct } from './context.js';
import { type DoorAnswer, doors } from './doors.js';
import { classRow, drawFormCases, expectedAddress, GROUPS, groupCell, groupOf, type Outcome } from './formCases.js';

const TOP = 5;
const FOCUS_RADIUS_M = 3000;
const HOW = ['full', 'cut', 'cut, no focus'] as const;
type How = (typeof HOW)[number];
const TARGET: Record<How, number | undefined> = { full: 0.99, cut: 0.97, 'cut, no focus': undefined };
const TYPED: Record<How, string> = {
  full: 'in full',
  cut: 'cut behind the number, focus within 3 km',
  'cut, no focus': 'cut, no focus',
};
const FORMS = ADDRESS_FORMS.filter((f) => f !== 'no-number marker');

export async function evaluateFormsAutocomplete(ctx: EntryEvalContext): Promise<EntryEvaluation> {
  const { cases } = await drawFormCases(ctx, (form) => form !== 'no-number marker');
  // One request per distinct request: several forms of one address share their cut ("Contrabasweg 132").
  const answers = new Map<string, Promise<DoorAnswer>>();
  const ask = (path: string) => {
    if (!answers.has(path)) {
      answers.set(
        path,
        ctx.api.get(path).then((res) => doors.readNative(res)),
      );
    }
    return answers.get(path)!;
  };
  const asked = await ctx.runAll(cases, async (c) => {
    const focus = nearby(c.doc.location, new Rng(`${ctx.seed}|forms-autocomplete|${c.doc.id}`), FOCUS_RADIUS_M);
    return Promise.all(
      HOW.map(async (how): Promise<Outcome> => {
        const text = how === 'full' ? c.text : c.cut;
        const params = new URLSearchParams({ q: text, size: String(TOP) });
        if (how === 'cut') {
          params.set('lat', String(focus.lat));
          params.set('lon', String(focus.lon));
        }
        const answer = await ask(`/autocomplete?${params}`);
        const right = answer.tops.some((s) => s.kind === 'address' && c.right.has(s.id));
        const got = answer.tops.length ? answer.tops.map((s) => s.label) : answer.status === 200 ? '[]' : answer.status;
        return {
          cls: `${c.form}|${how}`,
          group: groupOf(c.stratum, c.language),
          text: how === 'cut' ? `${text} (focus ${focus.lat},${focus.lon})` : text,
          expected: expectedAddress(c.doc),
          right,
          got,
          ms: answer.ms,
        };
      }),
    );
  });
  const outcomes = asked.flat();
  ctx.log(`forms-autocomplete: ${outcomes.length} texts, ${answers.size} distinct requests`);

  const rows = FORMS.flatMap((form) =>
    HOW.map((how) => ({
      form,
      how,
      example: cases.find((c) => c.form === form)?.[how === 'full' ? 'text' : 'cut'] ?? '',
      ...classRow(
        `${form}|${how}`,
        outcomes.filter((o) => o.cls === `${form}|${how}`),
        TARGET[how] ?? 0,
        MISSES_SHOWN,
      ),
      targeted: TARGET[how] !== undefined,
    })),
  );
  for (const r of rows) if (r.targeted) logMisses(ctx, `forms-autocomplete: ${r.form}, ${r.how}`, r.misses);
  const table = markdownTable(
    ['form', 'typed', 'e.g.', 'n', ...GROUPS.map((g) => `top-${TOP} ${g} (n)`), `top-${TOP}`, 'target', 'p50 ms', 'ok'],
    rows.map((r) => [
      r.form,
      TYPED[r.how],
      `\`${r.example}\``,
      r.n,
      ...GROUPS.map((g) => groupCell(r, g)),
      pct(r.rate),
      r.targeted ? pct(r.target) : '–',
      r.p50,
      r.targeted ? (r.pass ? 'PASS' : 'FAIL') : '',
    ]),
  );
  return {
    name: 'forms (autocomplete)',
    table,
    pass: rows.every((r) => !r.targeted || r.pass),
    summary: { rows: rows.map(({ cls: _cls, ...r }) => r) },
  };
}
