/**
 * A part of a search body that is the same for every request (a `_source` list, a sort, rank functions), built
 * once at module load instead of per request: fewer objects per request for the API's scavenges to copy. Frozen
 * all the way down because every request's body shares it: a caller that changed it would change every other's.
 */
export function constantPart<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) constantPart(v);
    Object.freeze(value);
  }
  return value;
}
