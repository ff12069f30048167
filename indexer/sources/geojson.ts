/**
 * GeoJSON sources. A FeatureCollection is parsed whole: areas and buildings are held in memory for
 * the spatial joins anyway. Big inputs belong in GeoJSONSeq (one feature per line), which streams.
 */
import { createInterface } from 'node:readline';
import type { Feature, Geometry } from 'geojson';
import { physicalLines } from './decode.js';
import { openText } from './open.js';
import { type ReadOptions, SourceFileError, type SourceItem } from './types.js';

export { SourceFileError } from './types.js';

const RECORD_SEPARATOR = String.fromCharCode(0x1e);

function featureItem(position: number, value: unknown): SourceItem {
  if (!value || typeof value !== 'object' || (value as { type?: unknown }).type !== 'Feature') {
    return { position, props: {}, error: 'not a GeoJSON Feature', raw: JSON.stringify(value)?.slice(0, 500) };
  }
  const f = value as Feature<Geometry | null, Record<string, unknown> | null>;
  return { position, props: f.properties ?? {}, geometry: f.geometry };
}

async function readAll(path: string, options: ReadOptions): Promise<string> {
  const opened = await openText(path, { encoding: options.encoding });
  options.progress?.(opened.progress);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of opened.output) chunks.push(chunk as Buffer);
  } catch (error) {
    throw opened.failure(error, 0);
  } finally {
    opened.destroy();
  }
  if (options.stats) options.stats.encoding = opened.position.encoding;
  return Buffer.concat(chunks).toString('utf8');
}

export async function* readGeoJson(path: string, options: ReadOptions = {}): AsyncGenerator<SourceItem> {
  const text = await readAll(path, options);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SourceFileError(path, `${path} is not JSON: ${(error as Error).message}`);
  }
  const collection = parsed as { type?: unknown; features?: unknown };
  if (collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new SourceFileError(path, `${path} is not a GeoJSON FeatureCollection`);
  }
  const features = collection.features as unknown[];
  for (let i = 0; i < features.length; i++) {
    yield featureItem(i + 1, features[i]);
    // Release as we go so the parsed file shrinks while its records are indexed.
    features[i] = undefined;
  }
}

export async function* readGeoJsonSeq(path: string, options: ReadOptions = {}): AsyncGenerator<SourceItem> {
  const opened = await openText(path, { encoding: options.encoding });
  options.progress?.(opened.progress);
  const lines = createInterface({ input: opened.output, crlfDelay: Infinity });
  let position = 0;
  let records = 0;
  try {
    for await (const rawLine of lines) {
      position++;
      // RFC 8142 record separators are optional; tolerate both forms.
      const line = (rawLine.startsWith(RECORD_SEPARATOR) ? rawLine.slice(1) : rawLine).trim();
      if (!line) continue;
      records++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        yield { position, props: {}, error: `not JSON: ${(error as Error).message}`, raw: line.slice(0, 500) };
        continue;
      }
      yield featureItem(position, value);
    }
    if (options.stats) {
      options.stats.lines = physicalLines(opened.position);
      options.stats.encoding = opened.position.encoding;
    }
  } catch (error) {
    throw opened.failure(error, records);
  } finally {
    lines.close();
    opened.destroy();
  }
}
