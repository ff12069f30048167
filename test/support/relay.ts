/**
 * A TCP relay between the API and the real Elasticsearch, so a test can cut, hang and restore the connection:
 * `forward` pipes to the target, `blackhole` accepts connections and never answers. The mode applies to
 * connections accepted after it is set; `slow`, `refuse`, `lose`, `holdQueued` and `hang` act on single requests of
 * forwarded connections.
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
  /**
   * The next `count` requests whose request line matches are answered here with `status` and never reach
   * Elasticsearch (say 429, a full search queue: one read refused by a living node); later ones go on.
   */
  refuse: { requests: RegExp; count: number; status: number } | undefined;
  /**
   * The next `count` requests whose request line matches go on to Elasticsearch, which carries them out, but their
   * answer is lost: when it arrives the relay resets the client's connection instead (a connection cut after the
   * work was done, or a proxy that gave up waiting), then calls `then` if given. Later ones go on.
   */
  lose: { requests: RegExp; count: number; then?: () => void } | undefined;
  /** Requests held until the test lets them go (hold()). */
  private gate: { requests: RegExp; waiting: (() => void)[]; onHeld: () => void } | undefined;
  /**
   * The next request whose request line matches `requests` is held here, and its client gets `answer` at once (a
   * proxy's 502, or `'reset'`: the connection cut) while the request has not reached Elasticsearch yet: a change
   * still queued on the master when its answer failed. It goes on to Elasticsearch, on a connection of its own, only
   * when a request matching `until` arrives (on any connection), and that one waits until Elasticsearch has answered
   * the held one: the order a master keeps between a queued change and what comes after it. Never released if no
   * such request comes (a change the master dropped). `then` is called once the request is held and answered.
   */
  holdQueued: { requests: RegExp; answer: number | 'reset'; until: RegExp; then?: () => void } | undefined;
  /**
   * Requests whose request line matches never reach Elasticsearch and are never answered, nor is anything after them
   * on their connection (a node that stopped answering them); `then` is called with how many were hung so far.
   */
  hang: { requests: RegExp; hung?: number; then?: (hung: number) => void } | undefined;
  /** The `holdQueued` already used (each holds one request), and the request it holds until released. */
  private holdUsed: object | undefined;
  private held: Buffer | undefined;
  /** Requests that went on to Elasticsearch after the held one was answered there: what released it. */
  released: string[] = [];

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
        let refused: Buffer | undefined;
        let holding: Buffer | undefined;
        let hung = false;
        client.on('data', (chunk: Buffer) => {
          if (hung) return;
          const hang = this.hang;
          if (hang && startsRequest(hang.requests, chunk)) {
            hung = true;
            hang.hung = (hang.hung ?? 0) + 1;
            hang.then?.(hang.hung);
            return;
          }
          if (holding || this.holds(chunk)) {
            holding = Buffer.concat([holding ?? Buffer.alloc(0), chunk]);
            if (!requestComplete(holding)) return;
            this.held = holding;
            upstream.destroy();
            const answer = this.holdQueued?.answer ?? 502;
            if (answer === 'reset') client.resetAndDestroy();
            else client.end(proxyFailure(answer));
            this.holdQueued?.then?.();
            return;
          }
          if (
            this.held &&
            this.holdQueued &&
            this.holdUsed === this.holdQueued &&
            startsRequest(this.holdQueued.until, chunk)
          ) {
            // What the master would do after the held change: the held change goes first, this one when it is done.
            const held = this.held;
            this.held = undefined;
            this.released.push(chunk.subarray(0, chunk.indexOf('\r\n')).toString('latin1'));
            client.pause();
            void this.send(held).then(() => {
              upstream.write(chunk);
              client.resume();
            });
            return;
          }
          if (refused || this.refuses(chunk)) {
            // The whole request is read before the answer, so the client is never cut off while still sending.
            refused = Buffer.concat([refused ?? Buffer.alloc(0), chunk]);
            if (!requestComplete(refused)) return;
            client.end(refusal(this.refuse?.status ?? 503));
            upstream.destroy();
            return;
          }
          if (this.loses(chunk)) {
            // Nothing of the answer reaches the client: its first bytes end both connections.
            const then = this.lose?.then;
            upstream.unpipe(client);
            upstream.once('data', () => {
              client.resetAndDestroy();
              upstream.destroy();
              then?.();
            });
            // Unpiped, it was paused: a 'data' listener alone does not set it flowing again.
            upstream.resume();
          }
          const gate = this.gate;
          if (gate && startsRequest(gate.requests, chunk)) {
            // HTTP/1.1 without pipelining: holding this connection's bytes holds exactly this request.
            client.pause();
            gate.waiting.push(() => {
              upstream.write(chunk);
              client.resume();
            });
            gate.onHeld();
            return;
          }
          const slow = this.slow;
          if (!slow || !startsRequest(slow.requests, chunk)) return upstream.write(chunk);
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

  /**
   * From now on, requests whose request line matches wait, on any forwarded connection, until `release()` (then they
   * and any later one go on); `held` resolves once the first one is waiting. The test, not a delay, says how long a
   * request stays with Elasticsearch.
   */
  hold(requests: RegExp): { held: Promise<void>; release: () => void } {
    let onHeld!: () => void;
    const held = new Promise<void>((resolve) => (onHeld = resolve));
    const gate = { requests, waiting: [] as (() => void)[], onHeld };
    this.gate = gate;
    const release = () => {
      if (this.gate === gate) this.gate = undefined;
      for (const go of gate.waiting.splice(0)) go();
    };
    return { held, release };
  }

  /** Whether the request starting in `chunk` is the one to hold (see `holdQueued`). */
  private holds(chunk: Buffer): boolean {
    if (!this.holdQueued || this.holdUsed === this.holdQueued || !startsRequest(this.holdQueued.requests, chunk))
      return false;
    this.holdUsed = this.holdQueued;
    return true;
  }

  /** Sends `request` to Elasticsearch on a connection of its own; resolves once its answer has begun to arrive. */
  private send(request: Buffer): Promise<void> {
    return new Promise((resolve) => {
      const upstream = connect(Number(this.target.port), this.target.hostname, () => upstream.write(request));
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.on('error', () => resolve());
      upstream.once('data', () => {
        upstream.destroy();
        resolve();
      });
    });
  }

  /** Whether the request starting in `chunk` is one to refuse (counted as refused if so). */
  private refuses(chunk: Buffer): boolean {
    const refuse = this.refuse;
    if (!refuse || refuse.count <= 0 || !startsRequest(refuse.requests, chunk)) return false;
    refuse.count -= 1;
    return true;
  }

  /** Whether the answer to the request starting in `chunk` is to be lost (counted as lost if so). */
  private loses(chunk: Buffer): boolean {
    const lose = this.lose;
    if (!lose || lose.count <= 0 || !startsRequest(lose.requests, chunk)) return false;
    lose.count -= 1;
    return true;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Whether the request line (and first headers) at the start of `chunk` match `pattern`. */
function startsRequest(pattern: RegExp, chunk: Buffer): boolean {
  return pattern.test(chunk.subarray(0, 200).toString('latin1'));
}

/** Whether `bytes` hold a whole HTTP/1.1 request: its head and a body of its Content-Length (or a chunked end). */
function requestComplete(bytes: Buffer): boolean {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const head = bytes.subarray(0, headEnd).toString('latin1');
  if (/^transfer-encoding:\s*chunked/im.test(head)) return bytes.subarray(-5).toString('latin1') === '0\r\n\r\n';
  const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
  return bytes.length >= headEnd + 4 + length;
}

/** An answer as Elasticsearch gives it for a refused search, closing the connection (nothing else is read on it). */
function refusal(status: number): string {
  const body = JSON.stringify({
    error: { type: 'es_rejected_execution_exception', reason: 'refused by the test relay' },
    status,
  });
  return (
    `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
    `connection: close\r\n\r\n${body}`
  );
}

/** What a proxy answers when Elasticsearch did not answer it in time (or at all): no Elasticsearch body. */
function proxyFailure(status: number): string {
  const body = `${status} the proxy got no answer from Elasticsearch\n`;
  return (
    `HTTP/1.1 ${status} Bad Gateway\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
    `connection: close\r\n\r\n${body}`
  );
}
