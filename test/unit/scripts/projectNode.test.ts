import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript on purpose (it must parse on an old Node), no declarations
import { isTooOld, npmNodeVersion, wanted } from '../../../scripts/projectNode.mjs';

describe("the project's Node.js (scripts/projectNode.mjs: npm install's link and the npm scripts' check)", () => {
  it('is the 24 LTS of .node-version', () => {
    expect(wanted).toMatch(/^24\.\d+\.\d+$/);
  });

  it('calls an older major too old, and any 24 or later not', () => {
    expect(isTooOld('20.20.2')).toBe(true);
    expect(isTooOld('22.12.0')).toBe(true);
    expect(isTooOld('24.0.0')).toBe(false);
    expect(isTooOld(wanted)).toBe(false);
    expect(isTooOld('25.1.0')).toBe(false);
  });

  it("reads the node npm runs on from npm's user agent, not the node running the script", () => {
    expect(npmNodeVersion('npm/11.19.1 node/v20.20.2 linux x64 workspaces/false', '24.21.0')).toBe('20.20.2');
    expect(npmNodeVersion(undefined, '24.21.0')).toBe('24.21.0');
    expect(npmNodeVersion('yarn/1.22.0', '24.21.0')).toBe('24.21.0');
  });
});
