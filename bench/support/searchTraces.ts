/**
 * The API's X-Search-Trace headers (SEARCH_TRACE, src/http/searchTrace.ts) read back: what each request of an
 * open-loop run waited for (round trips in a row, searches, Elasticsearch's `took`, the batch it travelled in), and
 * which kinds of request make the slowest percent. Pure; bench/probes/tailProbe.ts `--trace` prints it.
 */
import { quantile } from './openLoop.js';

export interface TracedSearch {
  index: string;
  asked: number;
  sent: number;
  answered: number;
  took: number;
  batch: number;
}

export interface Trace {
  /** The request's time in the API, from its first middleware to the header's writing. */
  apiMs: number;
  searches: TracedSearch[];
}

export function parseTrace(header: string | undefined): Trace | undefined {
  if (!header) return undefined;
  const [head, ...parts] = header.split(';');
  const searches = parts.map((part) => {
    const [index = '', times = ''] = part.split(':');
    const [asked, sent, answered, took, batch] = times.split('/').map(Number);
    return { index, asked: asked!, sent: sent!, answered: answered!, took: took!, batch: batch! };
  });
  return { apiMs: Number(head?.slice('ms='.length)), searches };
}

/** The searches in round trips in a row: a search asked after an earlier one was answered starts a later round. */
export function rounds(searches: readonly TracedSearch[]): TracedSearch[][] {
  const out: TracedSearch[][] = [];
  let answeredBy = -Infinity;
  for (const s of [...searches].sort((a, b) => a.asked - b.asked)) {
    const last = out.at(-1);
    if (last && s.asked < answeredBy) last.push(s);
    else out.push([s]);
    answeredBy = Math.max(...out.at(-1)!.map((x) => x.answered));
  }
  return out;
}

/** A request's kind: its round trips in a row, each the indexes it searched (`streets+places > places`). */
export function kindOf(trace: Trace | undefined, shortText: boolean): string {
  if (!trace) return 'no trace';
  if (trace.searches.length === 0) return shortText ? 'shared answer (no search)' : 'no search';
  return rounds(trace.searches)
    .map((round) => round.map((s) => s.index).join('+'))
    .join(' > ');
}

export interface Parts {
  latency: number;
  /** Outside the API's middleware: the client's and the server's socket queues, the API's event loop before it. */
  outside: number;
  api: number;
  /** In round trips to Elasticsearch (each round's first send to its last answer, summed). */
  roundTrips: number;
  /** The sum of the rounds' largest `took`. */
  took: number;
  /** Asked to sent: the batcher's wait for the end of the turn. */
  batchWait: number;
  /** The largest batch the request travelled in. */
  batch: number;
}

export function partsOf(latency: number, trace: Trace): Parts {
  const rs = rounds(trace.searches);
  const sum = (f: (round: TracedSearch[]) => number) => rs.reduce((n, round) => n + f(round), 0);
  return {
    latency,
    outside: latency - trace.apiMs,
    api: trace.apiMs,
    roundTrips: sum((r) => Math.max(...r.map((s) => s.answered)) - Math.min(...r.map((s) => s.sent))),
    took: sum((r) => Math.max(...r.map((s) => s.took || 0))),
    batchWait: sum((r) => Math.max(...r.map((s) => s.sent - s.asked))),
    batch: Math.max(0, ...trace.searches.map((s) => s.batch)),
  };
}

export interface KindRow {
  kind: string;
  all: number;
  slowest1: number;
  slowest2: number;
  p50: number;
  p99: number;
}

/** Per kind: its share of all requests and of the slowest 1 % and 2 %, its own p50 and p99. */
export function kindTable(samples: readonly { latency: number; kind: string }[]): KindRow[] {
  const sorted = [...samples].sort((a, b) => b.latency - a.latency);
  const top = (share: number) => sorted.slice(0, Math.max(1, Math.ceil(sorted.length * share)));
  const count = (list: readonly { kind: string }[], kind: string) => list.filter((s) => s.kind === kind).length;
  const kinds = [...new Set(samples.map((s) => s.kind))];
  return kinds
    .map((kind) => {
      const own = samples
        .filter((s) => s.kind === kind)
        .map((s) => s.latency)
        .sort((a, b) => a - b);
      return {
        kind,
        all: own.length / samples.length,
        slowest1: count(top(0.01), kind) / top(0.01).length,
        slowest2: count(top(0.02), kind) / top(0.02).length,
        p50: quantile(own, 0.5),
        p99: quantile(own, 0.99),
      };
    })
    .sort((a, b) => b.all - a.all);
}

/** The median of each part over a set of requests. */
export function medianParts(list: readonly Parts[]): Parts {
  const median = (f: (p: Parts) => number) =>
    quantile(
      list.map(f).sort((a, b) => a - b),
      0.5,
    );
  return {
    latency: median((p) => p.latency),
    outside: median((p) => p.outside),
    api: median((p) => p.api),
    roundTrips: median((p) => p.roundTrips),
    took: median((p) => p.took),
    batchWait: median((p) => p.batchWait),
    batch: median((p) => p.batch),
  };
}

/** A stop-the-world pause of Elasticsearch's JVM: when it ended (epoch ms) and how long it took. */
export interface JvmPause {
  endMs: number;
  ms: number;
}

/** The pauses in a G1 log (`-Xlog:gc*` lines `[<ISO time>]...[gc ...] GC(n) Pause ... <ms>ms`, stamped at the end). */
export function parseJvmPauses(log: string): JvmPause[] {
  const out: JvmPause[] = [];
  for (const line of log.split('\n')) {
    const m = /^\[([^\]]+)\]\[\d+\]\[info\s*\]\[gc\s*\] GC\(\d+\) Pause .* ([\d.]+)ms$/.exec(line);
    if (m) out.push({ endMs: Date.parse(m[1]!), ms: Number(m[2]) });
  }
  return out;
}

/** Whether a request (due at `dueMs`, epoch, answered `latency` ms later) was in flight during one of the pauses. */
export function overlapsPause(dueMs: number, latency: number, pauses: readonly JvmPause[]): boolean {
  return pauses.some((p) => dueMs < p.endMs && dueMs + latency > p.endMs - p.ms);
}
