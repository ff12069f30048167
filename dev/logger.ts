/**
 * `npm start`'s logger: readable coloured lines in a terminal (pino-pretty, in a worker thread so the
 * formatting stays off the request path), the service's JSON lines when the output is a file or a pipe.
 */
import pino, { type Logger } from 'pino';
import type { Config } from '../src/config/service.js';
import { createServiceLogger } from '../src/logger.js';

export function createDevelopmentLogger(level: Config['logLevel'], tty = Boolean(process.stdout.isTTY)): Logger {
  if (!tty) return createServiceLogger(level);
  const transport = pino.transport({
    target: 'pino-pretty',
    options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', singleLine: true },
  });
  return pino({ level, base: { service: 'geocoder' } }, transport);
}
