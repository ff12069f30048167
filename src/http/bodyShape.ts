/**
 * What a parsed JSON body may look like besides its schema: no deeper than MAX_BODY_DEPTH, and (when its text
 * names the key at all) no own `__proto__` key anywhere. One iterative walk with an explicit stack, so a body of
 * thousands of levels (8 KB of `[`) costs a loop, never the call stack.
 */

/**
 * Levels of objects and arrays, the body itself being the first. No endpoint's body nests deeper than a handful
 * (a batch is an object holding an array of flat objects: 3); 64 leaves room for any future shape and stays far
 * below where a recursive consumer (a schema, a logger) could run out of stack.
 */
export const MAX_BODY_DEPTH = 64;

export type BodyShapeProblem = 'too_deep' | 'proto_key';

/** The first problem found, or undefined. `protoSuspect`: whether to look for own `__proto__` keys. */
export function bodyShapeProblem(body: unknown, protoSuspect: boolean): BodyShapeProblem | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const stack: [object, number][] = [[body, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [value, depth] = top;
    if (depth > MAX_BODY_DEPTH) return 'too_deep';
    if (protoSuspect && Object.prototype.hasOwnProperty.call(value, '__proto__')) return 'proto_key';
    for (const child of Object.values(value)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return undefined;
}
