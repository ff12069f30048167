/**
 * Which requests the service has a route for, decided once per request before anything reads the body. Paths are
 * matched exactly as declared, case-sensitively and without a trailing slash (`/health/` and `/Health` are not
 * `/health`): one spelling per resource, so every rule keyed by path (open paths, body limits, routing, caches) sees
 * the same path, and other spellings are 404 like any unknown path. The router is configured the same way
 * (src/endpoints/router.ts: strict, sensitive).
 */

/** The methods @koa/router implements; any other is 501 whatever the path (RFC 9110 §15.6.2). */
export const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** Allow lists in this order. */
const ALLOW_ORDER: readonly string[] = KNOWN_METHODS;

export interface RouteDeclaration {
  /** Lower or upper case; GET implies HEAD. */
  method: string;
  /** As declared (OpenAPI form): `/addresses/{id}`, a parameter matching one non-empty segment. */
  path: string;
}

export type Resolution =
  | { kind: 'route' }
  | { kind: 'not_found' }
  | { kind: 'not_implemented' }
  /** The path exists; `allow` lists its methods. OPTIONS gets it as an answer, any other method as a 405. */
  | { kind: 'method_not_allowed'; allow: string };

interface Pattern {
  test: (path: string) => boolean;
  methods: Set<string>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matcherOf(path: string): (candidate: string) => boolean {
  if (!path.includes('{')) return (candidate) => candidate === path;
  const source = path
    .split(/\{\w+\}/)
    .map(escape)
    .join('[^/]+');
  const regexp = new RegExp(`^${source}$`);
  return (candidate) => regexp.test(candidate);
}

const ROUTE: Resolution = { kind: 'route' };

export class RouteTable {
  private readonly patterns: Pattern[] = [];
  /** The methods of each path without parameters: most requests are answered by one lookup here. */
  private readonly exact = new Map<string, Set<string>>();

  constructor(routes: readonly RouteDeclaration[]) {
    const byPath = new Map<string, Set<string>>();
    for (const route of routes) {
      const methods = byPath.get(route.path) ?? new Set<string>();
      const method = route.method.toUpperCase();
      methods.add(method);
      if (method === 'GET') methods.add('HEAD');
      byPath.set(route.path, methods);
    }
    for (const [path, methods] of byPath) {
      this.patterns.push({ test: matcherOf(path), methods });
      if (!path.includes('{')) this.exact.set(path, methods);
    }
  }

  /** What `method path` is: a route, or why not. `path` is the request's, undecoded (Koa's ctx.path). */
  resolve(method: string, path: string): Resolution {
    // A declared path and one of its methods is a route whatever else the path matches.
    if (this.exact.get(path)?.has(method)) return ROUTE;
    if (!(KNOWN_METHODS as readonly string[]).includes(method)) return { kind: 'not_implemented' };
    // Every pattern the path matches (`/countries/geojson` is also `/countries/{id}`): their methods together.
    const allowed = new Set<string>();
    for (const pattern of this.patterns) {
      if (pattern.test(path)) for (const m of pattern.methods) allowed.add(m);
    }
    if (allowed.size === 0) return { kind: 'not_found' };
    if (allowed.has(method)) return ROUTE;
    return { kind: 'method_not_allowed', allow: ALLOW_ORDER.filter((m) => allowed.has(m)).join(', ') };
  }
}
