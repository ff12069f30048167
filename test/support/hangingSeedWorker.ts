/**
 * Plays a seeding worker (src/features/tiles/seed/seedWorker.ts) that hangs, as one waiting on a read that never ends
 * would: it takes its input and then reports nothing, ever, until it is killed.
 */
process.once('message', () => {
  // Held open (the input taken, its channel would otherwise let it exit).
  setInterval(() => {}, 60_000);
});
// As the real worker: once the API is gone (a test that failed before its watchdog fired), nothing holds it.
process.once('disconnect', () => process.exit(0));
