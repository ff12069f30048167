import { Readable } from 'node:stream';
import type { Feature } from 'geojson';

/**
 * A FeatureCollection written feature by feature, so a large collection (a country's worth of boundaries, a
 * suburb's buildings) is never held as one string. An error after the first byte can only abort the body:
 * the client then sees a truncated, invalid document rather than a silently short list.
 */
export function streamFeatureCollection(pages: AsyncIterable<Feature[]>): Readable {
  async function* chunks() {
    yield '{"type":"FeatureCollection","features":[';
    let first = true;
    for await (const page of pages) {
      let out = '';
      for (const feature of page) {
        out += (first ? '' : ',') + JSON.stringify(feature);
        first = false;
      }
      if (out) yield out;
    }
    yield ']}';
  }
  return Readable.from(chunks(), { objectMode: false });
}
