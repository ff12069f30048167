/**
 * Whether the installed `@elastic/transport` carries the project's patch (patches/@elastic+transport+9.4.0.patch).
 * `npm ci` applies it; `npm install --ignore-scripts`, a copied `node_modules` or an upgrade by hand do not, and the
 * service still works, only with the long young-generation pauses the patch removed (patches/README.md). Checked
 * once at start-up from the module's text, so an unpatched install is a log line, not a surprise under load.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The function the patch adds to Transport.js (both the ES module and the CommonJS build). */
export const PATCH_MARK = 'function resultWarnings()';

/** The folder of the transport the client itself loads (resolved from the client's own folder). */
function installedTransport(): string {
  const fromHere = createRequire(import.meta.url);
  const fromClient = createRequire(fromHere.resolve('@elastic/elasticsearch'));
  return dirname(fromClient.resolve('@elastic/transport/package.json'));
}

/** Both builds of the transport in `root` patched; false when either is not, or cannot be read. */
export function transportPatched(root?: string): boolean {
  try {
    const folder = root ?? installedTransport();
    return ['lib', 'esm'].every((build) =>
      readFileSync(join(folder, build, 'Transport.js'), 'utf8').includes(PATCH_MARK),
    );
  } catch {
    return false;
  }
}
