/** The event loop's lag, as the refusal of new tile cuts reads it (src/http/loopLag.ts), on a clock of our own. */
import { describe, expect, it } from 'vitest';
import { LoopLag } from '../../src/http/loopLag.js';

/** A sampler due every 10 ms that fired at these times. */
function ticked(...times: number[]): LoopLag {
  const lag = new LoopLag(10, 0);
  for (const t of times) lag.tick(t);
  return lag;
}

describe('the event loop’s lag', () => {
  it('is nothing while the timer fires on time', () => {
    expect(ticked(10, 20, 30, 40).lagMs).toBe(0);
  });

  it('is not one long piece of work (an index built, a garbage collection): one late tick', () => {
    expect(ticked(10, 20, 330).lagMs).toBe(0);
    expect(ticked(10, 20, 330, 340).lagMs).toBe(0);
  });

  it('is how late the ticks have all been when every turn of the loop is long', () => {
    expect(ticked(10, 60, 120, 170).lagMs).toBe(40);
    expect(ticked(10, 60, 120, 170, 180).lagMs).toBe(0);
  });
});
