/**
 * Preloaded into the API child of `npm run chaos` (`node --import tsx --import ./bench/support/memoryProbe.ts`):
 * appends `{t, rss, heapUsed, heapTotal}` (bytes) to CHAOS_MEMORY_FILE every CHAOS_MEMORY_INTERVAL_MS (default
 * 5 s), so the soak phase can report the API's heap without an endpoint in the service for it.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.CHAOS_MEMORY_FILE;
if (file) {
  const write = () => {
    const m = process.memoryUsage();
    appendFileSync(
      file,
      `${JSON.stringify({ t: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal })}\n`,
    );
  };
  setInterval(write, Number(process.env.CHAOS_MEMORY_INTERVAL_MS ?? 5000)).unref();
  write();
}
