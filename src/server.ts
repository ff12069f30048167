/** Serving the app on a port and stopping it cleanly: shared by the production entry and `npm start`. */
import type { Server } from 'node:http';
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config/service.js';

/**
 * How long an idle keep-alive connection stays open: longer than the usual load balancer's idle timeout, so the
 * balancer closes idle connections first (a server closing a connection the client is reusing is a reset).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface RunningServer {
  server: Server;
  url: string;
}

export function listen(config: Config, client: Client, logger: Logger): Promise<RunningServer> {
  const app = createApp({ config, client, logger });
  return new Promise((resolve, reject) => {
    const server = app.listen(config.port, config.host);
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      const url = `http://localhost:${port}`;
      logger.info({ url }, 'geocoder listening');
      resolve({ server, url });
    });
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  });
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
