/**
 * geopy's geocoder classes, run unchanged by Debian's python3-geopy (test/clients/geopy_client.py) against a test
 * API: the calls in, one JSON answer per call out. Asynchronous: the API answering them runs in this process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../clients/geopy_client.py', import.meta.url));
/** Debian's interpreter, where python3-geopy is installed (a pyenv python3 first on PATH would not have it). */
const PYTHON = '/usr/bin/python3';

export interface GeopyCall {
  op: 'geocode' | 'reverse';
  query: unknown;
  kwargs?: Record<string, unknown>;
}

export interface GeopyLocation {
  address: string;
  latitude: number;
  longitude: number;
  raw: any;
}

export type GeopyAnswer = GeopyLocation | GeopyLocation[] | null | { error: string };

export function runGeopy(geocoder: 'nominatim' | 'photon' | 'pelias', domain: string, key: string, calls: GeopyCall[]) {
  return new Promise<GeopyAnswer[]>((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, geocoder, domain, key], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`geopy client exited ${code}: ${err}`));
      else resolve(JSON.parse(out) as GeopyAnswer[]);
    });
    child.stdin.end(JSON.stringify(calls));
  });
}
