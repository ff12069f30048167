// Run before `npm start`, `npm test` and the other entry points (npm's pre-scripts): on an older Node.js the
// project fails here with what to do, instead of with a stack trace from some dependency. Plain syntax on purpose,
// so that even a very old Node can parse this file.
import { readFileSync } from 'node:fs';

const wanted = readFileSync(new URL('../.node-version', import.meta.url), 'utf8').trim();
const major = Number(process.versions.node.split('.')[0]);
const wantedMajor = Number(wanted.split('.')[0]);
if (major < wantedMajor) {
  process.stderr.write(
    'This project runs on Node.js ' +
      wantedMajor +
      ' LTS (' +
      wanted +
      '); this is Node.js ' +
      process.versions.node +
      '.\n' +
      'Put Node.js ' +
      wanted +
      ' first on PATH (installed once from the npm registry) with:\n' +
      '  eval "$(bash scripts/node24.sh)"\n',
  );
  process.exit(1);
}
