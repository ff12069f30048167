/** `status`: the prefix's generations, its run lock and any write block left on its indexes, read only. */
import type { Client } from '@elastic/elasticsearch';
import { listGenerations, liveIndexes } from '../generations/generations.js';
import { readRunLock } from '../generations/runLock.js';
import { writeBlocksOf } from '../generations/writeBlocks.js';

export async function generationStatus(client: Client, prefix: string) {
  const generations = await listGenerations(client, prefix);
  const lock = await readRunLock(client, prefix);
  const live = new Set(Object.values(await liveIndexes(client, prefix)).flat());
  const writeBlocks = await writeBlocksOf(client, prefix, live);
  return { prefix, lock, generations, writeBlocks };
}
