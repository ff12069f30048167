/**
 * What a 400's detail says about one zod issue. The issues must carry their input (`reportInput`, as
 * src/http/validate.ts parses): a field that is absent is "Required (expected string)", not zod's "Invalid
 * input", whichever kind of schema (a type, a union, an enum) it failed.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** What the schema wanted, in words: `string`, `string or number`, `one of "json", "geojson"`; undefined if unknown. */
export function expectedOf(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'invalid_value':
      return issue.values.length === 1
        ? JSON.stringify(issue.values[0])
        : `one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_union': {
      // Each branch's own issue about the value itself (not a field inside it) names what the branch expects.
      const branches = issue.errors.flatMap((branch) => branch.filter((inner) => inner.path.length === 0));
      const expected = [...new Set(branches.map(expectedOf).filter((e): e is string => e !== undefined))];
      return expected.length > 0 ? expected.join(' or ') : undefined;
    }
    default:
      return undefined;
  }
}

/** Absent (the input at the issue's path is undefined) and failed for its type: required. */
const isMissing = (issue: Issue) =>
  'input' in issue &&
  issue.input === undefined &&
  (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value');

export function issueMessage(issue: Issue): string {
  const expected = expectedOf(issue);
  if (isMissing(issue)) return expected ? `Required (expected ${expected})` : 'Required';
  // A union's own message is zod's bare "Invalid input": say what it takes instead.
  if (issue.code === 'invalid_union' && expected) return `Invalid input: expected ${expected}`;
  return issue.message;
}
