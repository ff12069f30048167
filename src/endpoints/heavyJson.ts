/**
 * A JSON answer made in memory for one request that may be heavy though it is not a boundary answer (Nominatim's
 * `polygon_geojson`: up to 50 areas' whole outlines). A handler returns one; the router sends it through the
 * heavy-answer limits (src/http/heavyAnswers.ts) as a boundary answer goes: light, at once; heavy, in its turn,
 * sliced and paced, holding its bytes from the budget of answers in flight while it waits and is written.
 */
import type { Context } from 'koa';
import type { HeavyAnswers } from '../http/heavyAnswers.js';
import { JSON_TYPE } from '../http/mediaType.js';

export class HeavyJson {
  constructor(readonly body: unknown) {}

  async send(ctx: Context, heavy: HeavyAnswers): Promise<void> {
    ctx.type = JSON_TYPE;
    await heavy.send(ctx, Buffer.from(JSON.stringify(this.body)));
  }
}
