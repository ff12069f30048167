/** Deletes documents by id from one index, in bulk requests of a few thousand; a failure stops the update. */
import type { Client } from '@elastic/elasticsearch';

const BATCH = 5000;

export async function deleteDocuments(client: Client, index: string, ids: Iterable<string>): Promise<number> {
  let batch: string[] = [];
  let deleted = 0;
  const flush = async () => {
    if (!batch.length) return;
    const result = await client.bulk({ operations: batch.map((_id) => ({ delete: { _index: index, _id } })) });
    if (result.errors) {
      const first = result.items.find((item) => item.delete?.error)?.delete?.error;
      throw new Error(`deleting removed documents from ${index} failed: ${JSON.stringify(first)}`);
    }
    deleted += batch.length;
    batch = [];
  };
  for (const id of ids) {
    batch.push(id);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return deleted;
}
