/**
 * The API's CPU by layer, from a V8 `.cpuprofile`: each busy sample is charged to the innermost frame on its stack
 * that belongs to a package or a repository source folder, so a socket write or a JSON.parse (native frames) goes
 * to whoever called it; samples with no such frame are node:http's and net's own (parsing, socket reads). Module
 * loading at start-up is left out of the shares. Pure: a profile in, rows out (the "what each layer
 * costs" tables of docs/bench-log/).
 */
import type { CpuProfile, SelfTime } from './cpuProfile.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** First match wins: a package name (`@elastic/transport`) or a repository path (`src/http/auth.ts`). */
const LAYERS: [string, RegExp][] = [
  [
    'Koa: context, headers, respond, the write of the answer',
    /^(koa|koa-compose|koa-compress|@koa\/cors|delegates|on-finished|ee-first|statuses|vary|type-is|media-typer|mime-types|mime-db|content-type|cache-content-type|accepts|negotiator|fresh|encodeurl|escape-html|http-errors|depd|parseurl|destroy|compressible|bytes)$/,
  ],
  ['undici: the write of the search, reading its answer', /^undici$/],
  [
    'Elasticsearch client: transport, serializer, JSON of the answer',
    /^(@elastic\/.*|secure-json-parse|@opentelemetry\/.*|tslib|debug|ms)$/,
  ],
  [
    'the handler: src/features, core, repository, language',
    /^(src\/(features|repository|language|domain|schemas)|core\/)/,
  ],
  [
    'request log (pino, sonic-boom, src/logger.ts)',
    /^(pino.*|sonic-boom|fast-redact|quick-format-unescaped|src\/logger)/,
  ],
  ['zod validation', /^zod$/],
  ['Elasticsearch guard, batcher, client wrapper (src/elasticsearch)', /^src\/elasticsearch/],
  ['router and answer shaping (src/endpoints, @koa/router)', /^(src\/endpoints|@koa\/router|path-to-regexp)/],
  ['metrics (prom-client)', /^(prom-client|tdigest|bintrees)$/],
  ['JSON body (src/http/jsonBody.ts)', /^src\/http\/jsonBody/],
  ['API key check (src/http/auth.ts)', /^src\/http\/auth/],
  ['the rest of src/http: frame, CORS, compression, errors, gate', /^src\/(http|app)/],
  ['bench:cost --lean: its node:http calls, the write of the answer', /^bench\/support\/leanForward/],
  ['bare hop: its node:http and undici calls, the write of the answer', /^bench\/support\/passthroughServer/],
  ['bench:cost lean undici: the JSON of its searches and answers', /^bench\/support\/undiciSearcher/],
];
const NO_FRAME = 'node:http and net without an application frame above';

function ownerOf(url: string): string | undefined {
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (packageName) return packageName;
  return /\/((?:src|core|bench)\/.*)$/.exec(url)?.[1];
}

export function layerShares(profile: CpuProfile): SelfTime[] {
  const nodes = new Map((profile.nodes as ProfileNode[]).map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of nodes.values()) for (const child of node.children ?? []) parent.set(child, node.id);
  const layerOf = new Map<number, string | undefined>();
  const layer = (id: number): string | undefined => {
    if (layerOf.has(id)) return layerOf.get(id);
    const { functionName, url } = nodes.get(id)!.callFrame;
    let found: string | undefined;
    // Start-up: the module loader (and tsx's transform) anywhere on the stack.
    if (/^node:internal\/modules\//.test(url) || /\/tsx\/dist\//.test(url)) found = 'start-up';
    else if (functionName === '(garbage collector)') found = 'garbage collection';
    else if (functionName === '(program)') found = 'V8 (program)';
    else {
      const owner = ownerOf(url);
      const mine = owner && (LAYERS.find(([, pattern]) => pattern.test(owner))?.[0] ?? `other: ${owner}`);
      const above = parent.get(id);
      const outer = above === undefined ? undefined : layer(above);
      found = outer === 'start-up' ? outer : (mine ?? outer);
    }
    layerOf.set(id, found);
    return found;
  };
  const micros = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    if (nodes.get(id)?.callFrame.functionName === '(idle)') return;
    const name = layer(id) ?? NO_FRAME;
    if (name === 'start-up') return;
    const spent = profile.timeDeltas[i] ?? 0;
    total += spent;
    micros.set(name, (micros.get(name) ?? 0) + spent);
  });
  return [...micros]
    .map(([name, spent]) => ({ name, share: total ? spent / total : 0 }))
    .sort((a, b) => b.share - a.share);
}
