/** Serving the app on a port and stopping it cleanly: shared by the production entry and `npm start`. */
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from 'pino';
import { createApp } from './wiring/app.js';
import type { Config } from './config/service.js';
import { ServiceState } from './http/serviceState.js';

/**
 * How long an idle keep-alive connection stays open: longer than the usual load balancer's idle timeout, so the
 * balancer closes idle connections first (a server closing a connection the client is reusing is a reset).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface RunningServer {
  server: Server;
  url: string;
  /** Draining once drain() has begun: readiness answers 503. */
  state: ServiceState;
}

export function listen(config: Config, client: Client, logger: Logger): Promise<RunningServer> {
  const state = new ServiceState();
  const app = createApp({ config, client, logger, state });
  if (!config.apiKeysFile) {
    // Without a key file there is nothing to reload; Node's default for SIGHUP would end the process.
    process.on('SIGHUP', () => logger.info('SIGHUP ignored: no API_KEYS_FILE to reload'));
  }
  return new Promise((resolve, reject) => {
    // With REUSE_PORT several processes share the port (SO_REUSEPORT: the kernel spreads new connections over
    // them), so one can be restarted while the others serve (a rolling restart on one host).
    // A deep listen queue (LISTEN_BACKLOG): a burst of new connections beyond Node's default 511 (clients
    // reconnecting after a restart while the process is busy) waits to be accepted instead of having its SYNs
    // dropped and retried by TCP a second later (measured for the tile bench: docs/tiles.md, Rates).
    const server = app.listen({
      port: config.port,
      host: config.host,
      reusePort: config.reusePort,
      backlog: config.listenBacklog,
    });
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      const url = `http://localhost:${port}`;
      logger.info({ url }, 'geocoder listening');
      resolve({ server, url, state });
    });
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  });
}

/**
 * Stops serving without dropping a request: readiness turns 503 and the port stops accepting at once (before any
 * client is told to reconnect: with SO_REUSEPORT, a connection still waiting in a closing listener's queue is
 * reset, so the listener closes while clients are still on their kept-alive connections); every answer then says
 * `Connection: close`; after the notice (`noticeMs`, SHUTDOWN_NOTICE_MS, at most a quarter of the grace period) the
 * idle keep-alive connections close: meanwhile a busy keep-alive client moves to another process (or, after a
 * restart, the successor) after its next answer instead of having its connection closed under a request it is
 * sending (a reset). The requests in flight are answered for the rest of `graceMs`; whatever is still open then is
 * cut. Resolves once no connection is left; the caller closes Elasticsearch after it, so no answer in flight loses
 * its backend.
 */
export async function drain(
  { server, state }: RunningServer,
  { graceMs, noticeMs }: { graceMs: number; noticeMs: number },
  logger: Logger,
): Promise<void> {
  state.startDraining();
  const startedAt = performance.now();
  // net.Server's close stops accepting; http.Server's would also close the idle keep-alive connections at once.
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace_over'>((resolve) => {
    timer = setTimeout(() => resolve('grace_over'), graceMs);
  });
  const notice = new Promise<'notice_over'>((resolve) =>
    setTimeout(() => resolve('notice_over'), Math.min(noticeMs, graceMs / 4)),
  );
  if ((await Promise.race([closed, notice])) === 'notice_over') server.closeIdleConnections();
  if ((await Promise.race([closed, graceOver])) === 'grace_over') {
    logger.warn(
      { grace_ms: graceMs, after_ms: Math.round(performance.now() - startedAt) },
      'shutdown grace period over: closing the connections still open',
    );
    server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
}

/** Runs `stop` once on SIGINT or SIGTERM, then exits 0. */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    await stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
