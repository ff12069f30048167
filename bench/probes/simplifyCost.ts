/**
 * `npm run bench:simplify`: what `?simplify=` costs per request against simplifying once per level at index time.
 *
 * Per request the API simplifies every feature of an answer (src/geojson/simplify.ts) and serialises it; answers
 * repeated for one generation come from the body cache, but a map client panning with `bbox` asks a new question
 * almost every time. "Precomputed" serialises geometry simplified beforehand (what stored levels would serve).
 * CPU only, in-process, on the bundled sample's largest layers; medians of repeated runs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { simplifyShape } from '../../src/geojson/simplify.js';

const LAYERS = {
  countries: 'data/sample/world/ne_50m_countries.geojson',
  municipalities: 'data/sample/nl/cbs_gemeenten_2023.geojson',
};
const TOLERANCES_M = [100, 1_000, 5_000, 20_000];
const RUNS = 15;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function timeMs(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}

const latitudeOf = (geometry: Geometry): number => {
  const text = JSON.stringify(geometry);
  const match = /\[(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)\]/.exec(text);
  return match ? Number(match[2]) : 0;
};

console.log('| layer | features | simplify m | per request ms | precomputed ms | ratio | bytes |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const [name, path] of Object.entries(LAYERS)) {
  const collection = JSON.parse(readFileSync(resolve(path), 'utf8')) as FeatureCollection;
  const features = collection.features.filter((f): f is Feature<Geometry> => f.geometry !== null);
  const latitudes = features.map((f) => latitudeOf(f.geometry));
  const simplifyAll = (metres: number) =>
    features.map((f, i) => ({ ...f, geometry: simplifyShape(f.geometry, metres, latitudes[i] as number) }));
  const full = timeMs(() => JSON.stringify({ type: 'FeatureCollection', features }));
  console.log(
    `| ${name} | ${features.length} | none | - | ${full.toFixed(2)} | - | ${JSON.stringify(features).length} |`,
  );
  for (const metres of TOLERANCES_M) {
    const precomputed = simplifyAll(metres);
    const perRequest = timeMs(() => JSON.stringify({ type: 'FeatureCollection', features: simplifyAll(metres) }));
    const stored = timeMs(() => JSON.stringify({ type: 'FeatureCollection', features: precomputed }));
    console.log(
      `| ${name} | ${features.length} | ${metres} | ${perRequest.toFixed(2)} | ${stored.toFixed(2)} | ${(perRequest / stored).toFixed(1)}x | ${JSON.stringify(precomputed).length} |`,
    );
  }
}
