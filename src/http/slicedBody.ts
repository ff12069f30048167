/**
 * A heavy answer's bytes as a stream of slices, one per event-loop turn and at a pace (src/http/heavyAnswers.ts
 * decides which answers are heavy and holds their slots): from a kept buffer or from a body still being built.
 */
import { Readable } from 'node:stream';
import type { ClientWatch } from './clientWatch.js';

/**
 * 64 KiB: a loopback or LAN socket takes it in one write, small enough that a turn of the event loop spent on it
 * is a fraction of a millisecond.
 */
export const HEAVY_ANSWER_SLICE_BYTES = 64 * 1024;

/** Where a sliced answer's bytes come from: a kept buffer (synchronously) or a stream being built (asynchronously). */
export interface SliceSource {
  /** The next bytes (at most `max` of them where the source can cut); null once everything was handed out. */
  next(max: number): Buffer | null | Promise<Buffer | null>;
  /** The answer is abandoned (the client left): release what feeds it. */
  destroy?(): void;
}

/** A kept body, handed out as views (subarray: no copies). */
export function bufferSource(body: Buffer): SliceSource {
  let offset = 0;
  return {
    next(max) {
      if (offset >= body.length) return null;
      const end = Math.min(offset + max, body.length);
      const slice = body.subarray(offset, end);
      offset = end;
      return slice;
    },
  };
}

/**
 * `body` as a stream that hands out one slice per event-loop turn (setImmediate lets pending I/O run first), and
 * at most `bytesPerSecond` (0: as fast as the client takes it): a slice is due when the bytes before it would have
 * taken that long at the rate, as a proxy's per-connection rate limit paces a download. A slice that the source
 * is still producing (a body being built) is not the client's wait: the watch is told only once it is handed out.
 */
export function slicedBody(
  body: Buffer | SliceSource,
  bytesPerSecond: number,
  sliceBytes = HEAVY_ANSWER_SLICE_BYTES,
  client?: ClientWatch,
): Readable {
  const source = Buffer.isBuffer(body) ? bufferSource(body) : body;
  let offset = 0;
  let started: number | undefined;
  return new Readable({
    highWaterMark: sliceBytes,
    read() {
      client?.asked();
      const handOut = (slice: Buffer | null) => {
        if (slice === null) {
          client?.stop();
          this.push(null);
          return;
        }
        this.push(slice);
        offset += slice.length;
        client?.handedOut();
      };
      const push = () => {
        const next = source.next(sliceBytes);
        if (next instanceof Promise) next.then(handOut, (error: Error) => this.destroy(error));
        else handOut(next);
      };
      started ??= performance.now();
      const wait = bytesPerSecond > 0 ? started + (offset / bytesPerSecond) * 1000 - performance.now() : 0;
      if (wait >= 1) setTimeout(push, wait);
      else setImmediate(push);
    },
    destroy(error, callback) {
      client?.stop();
      source.destroy?.();
      callback(error);
    },
  });
}
