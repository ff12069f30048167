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
