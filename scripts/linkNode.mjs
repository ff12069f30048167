// Part of `npm install` (postinstall). When npm itself runs on a Node.js older than the project's (.node-version),
// this fetches the project's Node.js from the npm registry (scripts/node24.sh: the tarball pinned in .node-integrity,
// cached once per machine) and links it as node_modules/.bin/node. npm puts node_modules/.bin first on PATH for every
// script it runs, so `npm start`, `npm test`, `npm run <x>` and `npx <bin>` then run on it, whatever node the shell
// has. On a recent enough Node.js
// (Docker image, CI, a developer's 24) nothing is fetched, and a link left by an earlier install is removed.
// Plain syntax on purpose, so that even a very old Node can parse this file.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { wanted, isTooOld, npmNodeVersion, shellHint } from './projectNode.mjs';

const link = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
const fetchScript = fileURLToPath(new URL('./node24.sh', import.meta.url));

// The node npm runs on, not the one running this script (on a second install, the linked one).
const npmNode = npmNodeVersion(process.env.npm_config_user_agent, process.versions.node);

function ourLink() {
  try {
    return lstatSync(link).isSymbolicLink() && /\/node-linux-[a-z0-9]+\/bin\/node$/.test(readlinkSync(link));
  } catch {
    return false;
  }
}

if (!isTooOld(npmNode)) {
  if (ourLink()) unlinkSync(link);
} else {
  let target;
  try {
    const bin = execFileSync('bash', [fetchScript, '--bin'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    target = bin.trim() + '/node';
    mkdirSync(fileURLToPath(new URL('../node_modules/.bin/', import.meta.url)), { recursive: true });
    if (ourLink()) unlinkSync(link);
    symlinkSync(target, link);
    execFileSync(link, ['--version'], { stdio: 'ignore' });
  } catch {
    process.stderr.write(
      '\nThis project runs on Node.js ' +
        wanted +
        '; npm runs on Node.js ' +
        npmNode +
        ', and fetching ' +
        wanted +
        ' from the npm registry failed (above). Install Node.js ' +
        wanted +
        ', put it first on PATH, ' +
        'then run npm install again.\n',
    );
    process.exit(1);
  }
  process.stdout.write(
    '\nThis shell has Node.js ' +
      npmNode +
      " (hence npm's EBADENGINE warning); the project runs on " +
      wanted +
      '.\nLinked Node.js ' +
      wanted +
      ' (npm package node-linux-*, cached in ' +
      target.replace(/\/bin\/node$/, '') +
      ') as node_modules/.bin/node:\nnpm start, npm test, npm run <script> and npx run on it. ' +
      'For plain `node` in this shell: ' +
      shellHint +
      '\n\n',
  );
}
