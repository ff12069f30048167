// Run before `npm start`, `npm test` and the other entry points (npm's pre-scripts): on an older Node.js the
// project fails here with what to do, instead of with a stack trace from some dependency. Plain syntax on purpose,
// so that even a very old Node can parse this file.
import { wanted, isTooOld, shellHint } from './projectNode.mjs';

if (isTooOld(process.versions.node)) {
  process.stderr.write(
    'This project runs on Node.js ' +
      wanted +
      '; this is Node.js ' +
      process.versions.node +
      '.\n' +
      'Run `npm install` again (it links Node.js ' +
      wanted +
      ' from the npm registry for the npm scripts), or put it first on PATH in this shell with:\n' +
      '  ' +
      shellHint +
      '\n',
  );
  process.exit(1);
}
