/**
 * scripts/node24.sh installs the project's Node.js from the npm registry only as the tarball pinned in .node-integrity:
 * the pins follow .node-version, and a tarball whose sha512 is not the pinned one is refused before it is installed.
 * The script runs here against a stand-in `npm` (first on PATH) that hands out a tarball made by the test: no network.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '../../..');
const version = readFileSync(join(repo, '.node-version'), 'utf8').trim();
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';

/** package@version -> integrity, from .node-integrity. */
function pins(text: string): Map<string, string> {
  const lines = text.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
  return new Map(lines.map((line) => line.trim().split(/\s+/) as [string, string]));
}

describe("the pinned integrity of the project's Node.js (.node-integrity)", () => {
  it('covers the version in .node-version, for x64 and arm64, as sha512', () => {
    const pinned = pins(readFileSync(join(repo, '.node-integrity'), 'utf8'));
    for (const a of ['x64', 'arm64']) {
      expect(pinned.get(`node-linux-${a}@${version}`), a).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });
});

/** The npm stand-in: logs its arguments; `pack` copies $STUB_TARBALL, `install` unpacks the tarball it is given. */
const STUB_NPM = `#!/usr/bin/env bash
set -euo pipefail
echo "$*" >> "$STUB_LOG"
case "$1" in
  pack)
    while [ "$1" != --pack-destination ]; do shift; done
    dest="$2"; spec="\${@: -1}"; name="\${spec/@/-}.tgz"
    cp "$STUB_TARBALL" "$dest/$name"
    echo "$name" ;;
  install)
    while [ "$1" != --prefix ]; do shift; done
    prefix="$2"; tarball="\${@: -1}"
    mkdir -p "$prefix/node_modules/node-linux-${arch}"
    tar -xzf "$tarball" -C "$prefix/node_modules/node-linux-${arch}" --strip-components=1 ;;
  *) exit 1 ;;
esac
`;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A copy of the script and .node-version with `pinned` as this architecture's pin, and a tarball of a fake node. */
function setup(pinned: (tarballIntegrity: string) => string | undefined) {
  dir = mkdtempSync(join(tmpdir(), 'node-install-'));
  const root = join(dir, 'repo');
  mkdirSync(join(root, 'scripts'), { recursive: true });
  copyFileSync(join(repo, 'scripts', 'node24.sh'), join(root, 'scripts', 'node24.sh'));
  copyFileSync(join(repo, '.node-version'), join(root, '.node-version'));
  const fake = join(dir, 'package');
  mkdirSync(join(fake, 'bin'), { recursive: true });
  writeFileSync(join(fake, 'bin', 'node'), `#!/bin/sh\necho v${version}\n`);
  chmodSync(join(fake, 'bin', 'node'), 0o755);
  const tarball = join(dir, 'fake.tgz');
  expect(spawnSync('tar', ['-czf', tarball, '-C', dir, 'package']).status).toBe(0);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const pin = pinned(integrity);
  writeFileSync(join(root, '.node-integrity'), pin ? `# pins\nnode-linux-${arch}@${version} ${pin}\n` : '# none\n');
  const stubs = join(dir, 'bin');
  mkdirSync(stubs);
  writeFileSync(join(stubs, 'npm'), STUB_NPM);
  chmodSync(join(stubs, 'npm'), 0o755);
  const log = join(dir, 'npm.log');
  writeFileSync(log, '');
  const cache = join(dir, 'cache');
  const run = spawnSync('bash', [join(root, 'scripts', 'node24.sh')], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${stubs}:${process.env.PATH}`,
      GEOCODER_NODE_CACHE: cache,
      STUB_LOG: log,
      STUB_TARBALL: tarball,
    },
  });
  const bin = join(cache, `${version}-${arch}`, 'node_modules', `node-linux-${arch}`, 'bin');
  return { run, bin, integrity, npm: readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) };
}

describe('scripts/node24.sh', () => {
  it('installs the fetched tarball itself once its sha512 is the pinned one, in the cache layout of before', () => {
    const { run, bin, npm } = setup((integrity) => integrity);
    expect(run.stderr).not.toMatch(/refusing/);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(`export PATH="${bin}:$PATH"`);
    expect(existsSync(join(bin, 'node'))).toBe(true);
    expect(npm).toHaveLength(2);
    expect(npm[0]).toMatch(new RegExp(`^pack .* node-linux-${arch}@${version.replaceAll('.', '\\.')}$`));
    // The checked file, not the registry's name again.
    expect(npm[1]).toMatch(new RegExp(`^install .* /\\S+/node-linux-${arch}-${version.replaceAll('.', '\\.')}\\.tgz$`));
  });

  it('refuses a tarball whose sha512 is not the pinned one, and installs nothing', () => {
    const wrong = `sha512-${createHash('sha512').update('another tarball').digest('base64')}`;
    const { run, bin, integrity, npm } = setup(() => wrong);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`refusing to install node-linux-${arch}@${version}`);
    expect(run.stderr).toContain(`integrity ${integrity}`);
    expect(run.stderr).toContain(`.node-integrity pins ${wrong}`);
    expect(npm.map((line) => line.split(' ')[0])).toEqual(['pack']);
    expect(existsSync(bin)).toBe(false);
    expect(run.stdout).toBe('');
  });

  it('refuses to fetch a version .node-integrity pins nothing for', () => {
    const { run, bin, npm } = setup(() => undefined);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`.node-integrity pins no integrity for node-linux-${arch}@${version}`);
    expect(npm).toEqual([]);
    expect(existsSync(bin)).toBe(false);
  });
});
