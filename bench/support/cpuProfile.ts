/**
 * Where a process spent its CPU, from a V8 `.cpuprofile` (written by `node --cpu-prof`): the frames with the most
 * self time, and self time by package or source folder, as shares of all samples. Pure: a profile in, rows out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  /** Share of all sampled time, 0..1. */
  share: number;
}

/** `node_modules/@koa/router/dist/index.js` -> `@koa/router`; repository files keep their first two folders. */
export function ownerOf(url: string): string {
  if (!url) return '(native)';
  const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (packageName) return packageName;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const path = url.replace(/^file:\/\//, '');
  const inRepo = /\/((?:src|core|bench|indexer)\/.*)$/.exec(path)?.[1];
  return inRepo ? inRepo.split('/').slice(0, 3).join('/') : path;
}

function frameName(frame: CallFrame): string {
  const where = frame.url
    ? ` ${ownerOf(frame.url)}${/node_modules|^node:/.test(frame.url) ? '' : `:${frame.lineNumber + 1}`}`
    : '';
  return `${frame.functionName || '(anonymous)'}${where}`;
}

/** Self time of each frame and of each owner (package or folder), most first, as shares of the busy samples. */
export function selfTimes(profile: CpuProfile): { frames: SelfTime[]; owners: SelfTime[] } {
  const frameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const frames = new Map<string, number>();
  const owners = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = frameOf.get(id);
    const micros = profile.timeDeltas[i] ?? 0;
    // Shares of the time the process was busy: an idle sample is the event loop waiting, not a cost.
    if (!frame || frame.functionName === '(idle)') return;
    total += micros;
    const name = frameName(frame);
    frames.set(name, (frames.get(name) ?? 0) + micros);
    const owner = frame.url ? ownerOf(frame.url) : frame.functionName || '(anonymous)';
    owners.set(owner, (owners.get(owner) ?? 0) + micros);
  });
  const ranked = (m: Map<string, number>) =>
    [...m].map(([name, micros]) => ({ name, share: total ? micros / total : 0 })).sort((a, b) => b.share - a.share);
  return { frames: ranked(frames), owners: ranked(owners) };
}

/** The newest `.cpuprofile` in `dir`. */
export function newestProfile(dir: string): CpuProfile {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  const last = files[files.length - 1];
  if (!last) throw new Error(`no .cpuprofile in ${dir}`);
  return JSON.parse(readFileSync(join(dir, last), 'utf8')) as CpuProfile;
}

/** `msPerRequest`: the process's CPU per request, to show each row's share of it in ms as well (comparable across processes). */
export function formatSelfTimes(rows: SelfTime[], limit: number, msPerRequest?: number): string {
  const ms = (share: number) =>
    msPerRequest === undefined ? '' : `${(share * msPerRequest).toFixed(3).padStart(7)} ms  `;
  return rows
    .slice(0, limit)
    .map((row) => `${(row.share * 100).toFixed(1).padStart(5)} %  ${ms(row.share)}${row.name}`)
    .join('\n');
}
