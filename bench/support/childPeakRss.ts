/**
 * A child process run to its end with its peak resident set size: /proc's VmHWM, sampled every 50 ms until it exits
 * (a child's own getrusage maxRSS, when it reports one, is the other half: take the higher). Its stdout is returned
 * whole; its stderr passes through.
 */
import { spawn } from 'node:child_process';
import { processMemory } from './processMemory.js';

export interface ChildRun {
  code: number | null;
  stdout: string;
  /** Highest VmHWM seen, in MB (0 when the child ended before the first sample). */
  peakRssMb: number;
  wallMs: number;
}

export async function runWithPeakRss(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ChildRun> {
  const started = Date.now();
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  let peakMb = 0;
  const sampler = setInterval(() => {
    // Undefined once it has exited between samples.
    peakMb = Math.max(peakMb, processMemory(child.pid)?.peakRssMb ?? 0);
  }, 50);
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  clearInterval(sampler);
  return { code, stdout, peakRssMb: peakMb, wallMs: Date.now() - started };
}
