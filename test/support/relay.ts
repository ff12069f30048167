/**
 * A TCP relay between the API and the real Elasticsearch, so a test can cut, hang and restore the connection:
 * `forward` pipes to the target, `blackhole` accepts connections and never answers. The mode applies to
 * connections accepted after it is set.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export type RelayMode = 'forward' | 'blackhole';

export class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** Connections accepted since the relay was made. */
  accepted = 0;
  /** In `forward` mode, how long a new connection's first bytes wait before they go on (a slow Elasticsearch). */
  delayMs = 0;
  /**
   * Requests whose request line matches (say `/^POST \/[^ ]*_msearch/`) wait `slowMs` before they go on, on any
   * connection: a slow read on a living Elasticsearch, which still answers everything else at once.
   */
  slow: { requests: RegExp; slowMs: number } | undefined;

  constructor(
    private readonly target: URL,
    public mode: RelayMode = 'forward',
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async open(): Promise<void> {
    this.server = createServer((client) => {
      this.accepted += 1;
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => {});
      if (this.mode === 'blackhole') return;
      const upstream = connect(Number(this.target.port), this.target.hostname);
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      const forward = () => {
        upstream.pipe(client);
        client.on('data', (chunk: Buffer) => {
          const slow = this.slow;
          if (!slow || !slow.requests.test(chunk.subarray(0, 200).toString('latin1'))) return upstream.write(chunk);
          // HTTP/1.1 without pipelining: holding this connection's bytes holds exactly this request.
          client.pause();
          setTimeout(() => {
            upstream.write(chunk);
            client.resume();
          }, slow.slowMs);
        });
        client.on('end', () => upstream.end());
      };
      if (this.delayMs > 0) setTimeout(forward, this.delayMs);
      else forward();
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    const address = this.server.address();
    if (address && typeof address === 'object') this.port = address.port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
