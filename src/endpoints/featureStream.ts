import type { Feature } from 'geojson';
import type { Context } from 'koa';
import { streamFeatureCollection } from '../geojson/streamCollection.js';
import { geojsonMediaType } from '../http/mediaType.js';
import type { DocPages } from '../indexes/paging.js';

async function* mapPages<T>(pages: AsyncIterable<T[]>, toFeature: (doc: T) => Feature) {
  for await (const page of pages) yield page.map(toFeature);
}

/** A handler's result that is sent as a streamed FeatureCollection (the hierarchy's boundary lists). */
export class FeatureStream<T> {
  constructor(
    private readonly pages: DocPages<T>,
    private readonly toFeature: (doc: T) => Feature,
  ) {}

  /**
   * The first page is fetched before the status line goes out, so a backend failure is still a clean 503;
   * later pages stream.
   */
  async send(ctx: Context): Promise<void> {
    const pages = this.pages;
    const first = await pages.next();
    async function* all() {
      if (first.done) return;
      yield first.value;
      yield* pages;
    }
    ctx.type = geojsonMediaType(ctx);
    ctx.body = streamFeatureCollection(mapPages(all(), this.toFeature));
  }
}
