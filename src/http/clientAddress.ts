/** Who is asking, as far as the socket and (when trusted) the proxy in front can tell. */
import type { Context } from 'koa';

const isLoopbackAddress = (address: string) =>
  address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

/**
 * The socket's peer, and no forwarding header at all: a reverse proxy on the same host would otherwise make every
 * client look local, and X-Forwarded-For is whatever the client wrote.
 */
export function isDirectLoopback(ctx: Context): boolean {
  const peer = ctx.req.socket.remoteAddress ?? '';
  return isLoopbackAddress(peer) && !ctx.get('x-forwarded-for') && !ctx.get('forwarded');
}

/**
 * The address anonymous limits are kept per: the socket's peer, or with TRUST_PROXY the address the proxy in
 * front saw (the last X-Forwarded-For entry, which that proxy appended: earlier ones are the client's to forge).
 */
export function clientAddress(ctx: Context, trustProxy: boolean): string {
  const peer = ctx.req.socket.remoteAddress ?? 'unknown';
  if (!trustProxy) return peer;
  const forwarded = ctx
    .get('x-forwarded-for')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return forwarded.at(-1) ?? peer;
}
