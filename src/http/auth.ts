import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ApiError } from './errors.js';
import type { KeyStore } from './keyStore.js';

/** Short, non-reversible label for logs: enough to tell clients apart, useless to an attacker. */
export function keyFingerprint(key: string): string {
  return fingerprintOfDigest(createHash('sha256').update(key).digest());
}

function fingerprintOfDigest(digest: Buffer): string {
  return digest.toString('hex').slice(0, 8);
}

/** `keys` is read on every request, so a reloaded key file takes effect from the next request. */
export function apiKeyAuth(keys: KeyStore, isOpen: (path: string) => boolean) {
  const unauthorized = () => new ApiError(401, 'unauthorized', 'A valid X-Api-Key header is required');
  return async (ctx: Context, next: Next) => {
    if (isOpen(ctx.path)) return next();
    const key = ctx.get('x-api-key');
    if (!key) throw unauthorized();
    // Comparing fixed-length digests keeps the comparison constant-time whatever the key's length.
    const presented = createHash('sha256').update(key).digest();
    let match = false;
    for (const digest of keys.accepted()) match = timingSafeEqual(presented, digest) || match;
    if (!match) throw unauthorized();
    ctx.state.keyFingerprint = fingerprintOfDigest(presented);
    return next();
  };
}
