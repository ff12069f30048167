import type { Client } from '@elastic/elasticsearch';

export interface RoundTrips {
  search: number;
  msearch: number;
}

/** The same client, counting its `search` and `msearch` calls: each is one HTTP round trip to Elasticsearch. */
export function countingRoundTrips(client: Client): { client: Client; roundTrips: RoundTrips; reset(): void } {
  const roundTrips: RoundTrips = { search: 0, msearch: 0 };
  const counted = new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'search' || prop === 'msearch') {
        return (...args: unknown[]) => {
          roundTrips[prop]++;
          return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return {
    client: counted,
    roundTrips,
    reset() {
      roundTrips.search = 0;
      roundTrips.msearch = 0;
    },
  };
}
