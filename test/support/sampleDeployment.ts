/**
 * A deployment of its own over the sample: aliases `<prefix>areas`, `buildings` and `addresses` on the indexes the
 * sample's aliases point at, so a test can give it a new generation of areas (a copy, changed as it likes, swapped in
 * behind the alias as the indexer does) without touching the sample every other test reads.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { indexDefinition } from '../../core/elasticsearch/mappings.js';
import { uniqueIndexPrefix } from './elasticsearch.js';

type Source = Record<string, unknown>;

export class SampleDeployment {
  readonly prefix: string;
  /** The new generation of areas `swapAreas` makes. */
  readonly nextAreas: string;

  private constructor(
    private readonly client: Client,
    private readonly sample: string,
    name: string,
  ) {
    this.prefix = uniqueIndexPrefix(name);
    this.nextAreas = `${this.prefix}areas-next`;
  }

  static async over(client: Client, sample: string, name: string): Promise<SampleDeployment> {
    const deployment = new SampleDeployment(client, sample, name);
    for (const kind of ['areas', 'buildings', 'addresses'] as const) {
      await client.indices.putAlias({
        index: await deployment.behind(`${sample}${kind}`),
        name: deployment.alias(kind),
      });
    }
    return deployment;
  }

  /**
   * A new generation of areas: the sample's areas that `query` finds, each through `change`, copied by search and bulk
   * (the local launcher's node has no reindex module), then the alias swapped to it in one step.
   */
  async swapAreas(
    options: { query?: estypes.QueryDslQueryContainer; size?: number; change?: (source: Source) => Source } = {},
  ): Promise<void> {
    const { query, size = 10_000, change = (source) => source } = options;
    const { client } = this;
    await client.indices.create({ index: this.nextAreas, ...indexDefinition('areas') });
    const copy = await client.search({ index: `${this.sample}areas`, size, ...(query && { query }) });
    await client.bulk({
      refresh: true,
      operations: copy.hits.hits.flatMap((hit) => [
        { index: { _index: this.nextAreas, _id: hit._id } },
        change(hit._source as Source),
      ]),
    });
    await client.indices.updateAliases({
      actions: [
        { remove: { index: await this.behind(`${this.sample}areas`), alias: this.alias('areas') } },
        { add: { index: this.nextAreas, alias: this.alias('areas') } },
      ],
    });
  }

  /** Deletes the new generation and the deployment's aliases (the sample's indexes stay). */
  async remove(): Promise<void> {
    await this.client.indices.delete({ index: this.nextAreas }, { ignore: [404] });
    await this.client.indices.deleteAlias({ index: '_all', name: `${this.prefix}*` }, { ignore: [404] });
  }

  private alias(kind: string): string {
    return `${this.prefix}${kind}`;
  }

  /** The index an alias points at. */
  private async behind(alias: string): Promise<string> {
    return Object.keys(await this.client.indices.getAlias({ name: alias }))[0]!;
  }
}
