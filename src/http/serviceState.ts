import type { Context } from 'koa';

/**
 * Whether the process is draining (a SIGTERM arrived): readiness answers 503 from then on so a load balancer
 * stops sending new requests while the ones in flight are answered (src/server.ts).
 */
export class ServiceState {
  private drainingSince: number | undefined;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }
}

/**
 * While draining, every answer asks the client to close its connection, so a keep-alive client opens its next
 * one elsewhere instead of sending it down a connection about to close (a reset request).
 */
export function askToCloseWhenDraining(ctx: Context, state: ServiceState): void {
  if (state.draining) ctx.set('Connection', 'close');
}
