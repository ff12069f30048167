/**
 * A child process run to its end with its peak resident set size: /proc's VmHWM, sampled every 50 ms until it exits
 * (a child's own getrusage maxRSS, when it reports one, is the other half: take the higher). Its stdout is returned
 * whole; its stderr passes through.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
  let hwmKb = 0;
  const sampler = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      if (kb > hwmKb) hwmKb = kb;
    } catch {
      // exited between samples
    }
  }, 50);
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  clearInterval(sampler);
  return { code, stdout, peakRssMb: Math.round(hwmKb / 1024), wallMs: Date.now() - started };
}
