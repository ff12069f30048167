/**
 * A process's memory from /proc/<pid>/status: its resident set now (VmRSS) and at its peak so far (VmHWM), in MB.
 * Undefined when the process is not (or no longer) on this machine.
 */
import { readFileSync } from 'node:fs';

export interface ProcessMemory {
  rssMb: number;
  peakRssMb: number;
}

export function processMemory(pid: number | undefined): ProcessMemory | undefined {
  if (pid === undefined) return undefined;
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { rssMb: mb('VmRSS'), peakRssMb: mb('VmHWM') };
}
