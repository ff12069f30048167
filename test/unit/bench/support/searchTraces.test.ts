import { describe, expect, it } from 'vitest';
import {
  kindOf,
  kindTable,
  overlapsPause,
  parseJvmPauses,
  parseTrace,
  partsOf,
} from '../../../../bench/support/searchTraces.js';

describe("the API's search traces read back (bench:tail --trace)", () => {
  // Streets and places in one round trip, then the places again after the streets were answered.
  const header = 'ms=9.50;streets:0.40/0.50/3.00/1/4;places:0.45/0.50/3.20/2/4;places:3.60/3.70/8.10/3/1';

  it('tells the round trips in a row and the indexes of each', () => {
    const trace = parseTrace(header)!;
    expect(trace.apiMs).toBe(9.5);
    expect(kindOf(trace, false)).toBe('streets+places > places');
    expect(kindOf(parseTrace('ms=0.3'), true)).toBe('shared answer (no search)');
    expect(kindOf(undefined, false)).toBe('no trace');
  });

  it('splits a latency into outside the API, round trips, took and the batch wait', () => {
    const parts = partsOf(12, parseTrace(header)!);
    expect(parts.outside).toBeCloseTo(2.5);
    expect(parts.roundTrips).toBeCloseTo(2.7 + 4.4);
    expect(parts.took).toBe(2 + 3);
    expect(parts.batchWait).toBeCloseTo(0.1 + 0.1);
    expect(parts.batch).toBe(4);
  });

  it('gives each kind its share of all requests and of the slowest', () => {
    const samples = [
      ...Array.from({ length: 98 }, (_, i) => ({ latency: 1 + i / 100, kind: 'streets' })),
      { latency: 50, kind: 'streets > places' },
      { latency: 40, kind: 'streets > places' },
    ];
    const [streets, after] = kindTable(samples);
    expect(streets).toMatchObject({ kind: 'streets', all: 0.98, slowest1: 0, slowest2: 0 });
    expect(after).toMatchObject({ kind: 'streets > places', all: 0.02, slowest1: 1, slowest2: 1, p99: 50 });
  });
});

describe("Elasticsearch's JVM pauses read from its G1 log", () => {
  const log = [
    '[2026-11-27T03:32:09.237+0000][28214][info ][gc,start    ] GC(270) Pause Young (Mixed) (G1 Evacuation Pause)',
    '[2026-11-27T03:32:09.237+0000][28214][info ][gc          ] GC(270) Pause Young (Mixed) (G1 Evacuation Pause) 2085M->345M(3072M) 26.011ms',
    '[2026-11-27T03:32:09.300+0000][28214][info ][gc,heap     ] GC(270) Eden regions: 0->0(437)',
    '[2026-11-27T03:32:27.730+0000][28214][info ][gc          ] GC(272) Pause Remark 326M->326M(3072M) 32.228ms',
  ].join('\n');

  it('finds each pause with its end and length, and the requests in flight during one', () => {
    const pauses = parseJvmPauses(log);
    const end = Date.parse('2026-11-27T03:32:09.237Z');
    expect(pauses).toEqual([
      { endMs: end, ms: 26.011 },
      { endMs: Date.parse('2026-11-27T03:32:27.730Z'), ms: 32.228 },
    ]);
    expect(overlapsPause(end - 40, 20, pauses)).toBe(true);
    expect(overlapsPause(end - 60, 20, pauses)).toBe(false);
    expect(overlapsPause(end + 1, 5, pauses)).toBe(false);
  });
});
