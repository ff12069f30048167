import type { Client } from '@elastic/elasticsearch';

/** Exact names only: the cluster refuses wildcard deletes (action.destructive_requires_name). */
export async function deleteIndexesWithPrefix(client: Client, prefix: string): Promise<void> {
  const rows = await client.cat.indices({ index: `${prefix}*`, format: 'json', h: 'index' });
  const names = rows.map((r) => r.index).filter((n): n is string => Boolean(n));
  if (names.length > 0) await client.indices.delete({ index: names, ignore_unavailable: true });
}
