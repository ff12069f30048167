/**
 * An answer being built between its source and its client (src/http/builtBody.ts), without a server: what it reads
 * ahead, what it holds from the budget, and how it ends when its client leaves.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OverloadedError } from '../../../../core/domain/errors.js';
import { BuiltBody } from '../../../../src/http/builtBody.js';
import { ByteBudget } from '../../../../src/http/byteBudget.js';

const chunks = (n: number, bytes = 100) => Readable.from(Array.from({ length: n }, (_, i) => Buffer.alloc(bytes, i)));

describe('an answer being built', () => {
  it('reads at its client pace when it is not copied, holding from the budget only what it read ahead', async () => {
    const budget = new ByteBudget(1000);
    const body = new BuiltBody(chunks(20), budget);
    // Its first bytes, read ahead of the client (waiting for a slot), are held...
    expect(await body.peek(250)).toBe(false);
    expect(budget.takenBytes).toBe(300);
    // ...and given back as the client takes them; what it reads for the client it hands over at once.
    for (let i = 0; i < 5; i++) expect((await body.next())?.[0]).toBe(i);
    expect(budget.takenBytes).toBe(0);
    body.destroy();
  });

  it('refuses to wait with first bytes the budget has no room for', async () => {
    const budget = new ByteBudget(150);
    await expect(new BuiltBody(chunks(20), budget).peek(250)).rejects.toBeInstanceOf(OverloadedError);
  });

  it('copies the whole answer for the cache within the budget, and drops the copy once it has no room', async () => {
    const stored: Buffer[] = [];
    let done = 0;
    const keep = { maxBytes: 10_000, store: (b: Buffer) => stored.push(b), done: () => done++ };
    const kept = new BuiltBody(chunks(5), new ByteBudget(1000), keep);
    await kept.peek(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stored.map((b) => b.length)).toEqual([500]);
    expect(done).toBeGreaterThan(0);

    const budget = new ByteBudget(350);
    const dropped = new BuiltBody(chunks(20), budget, { ...keep, store: () => expect.fail('kept') });
    await dropped.peek(1);
    await new Promise((resolve) => setImmediate(resolve));
    // Three chunks copied, the fourth found no room: the copy is let go, the chunks read stay held for the client.
    expect(budget.takenBytes).toBe(300);
    let bytes = 0;
    for (let chunk = await dropped.next(); chunk; chunk = await dropped.next()) bytes += chunk.length;
    expect(bytes).toBe(2000);
    expect(budget.takenBytes).toBe(0);
  });

  it('fails a read asked after its client left, rather than end the answer as if it were whole', async () => {
    const budget = new ByteBudget(1000);
    const source = chunks(20);
    const body = new BuiltBody(source, budget);
    expect(await body.peek(250)).toBe(false);
    body.destroy();
    expect(source.destroyed).toBe(true);
    expect(budget.takenBytes).toBe(0);
    await expect(body.next()).rejects.toThrow(/abandoned/);
    await expect(body.peek(1)).rejects.toThrow(/abandoned/);
  });
});
