import { describe, expect, it } from 'vitest';
import { selfTimes, type CpuProfile } from '../../../../bench/support/cpuProfile.js';
import { layerShares } from '../../../../bench/support/profileLayers.js';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 });

describe('CPU profile self times', () => {
  it('gives shares of the busy samples: an idle event loop is not a cost', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)') },
        { id: 2, callFrame: frame('respond', 'file:///app/node_modules/koa/lib/application.js') },
        { id: 3, callFrame: frame('parse', 'file:///app/src/http/jsonBody.js') },
      ],
      samples: [1, 1, 1, 1, 2, 2, 2, 3],
      timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100],
    };
    const { frames, owners } = selfTimes(profile);
    expect(frames.map((f) => f.name)).not.toContain('(idle)');
    expect(owners).toEqual([
      { name: 'koa', share: 0.75 },
      { name: 'src/http/jsonBody.js', share: 0.25 },
    ]);
  });
});

describe('CPU profile by layer', () => {
  it('charges a native frame to the innermost package or source folder above it, and leaves start-up out', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 4, 6, 7, 8] },
        { id: 2, callFrame: frame('respond', 'file:///app/node_modules/koa/lib/application.js'), children: [3] },
        { id: 3, callFrame: frame('writeUtf8String') },
        { id: 4, callFrame: frame('hash', 'file:///app/src/http/auth.ts'), children: [5] },
        { id: 5, callFrame: frame('hash', 'node:internal/crypto/hash') },
        { id: 6, callFrame: frame('(garbage collector)') },
        { id: 7, callFrame: frame('import', 'node:internal/modules/esm/loader'), children: [9] },
        { id: 8, callFrame: frame('(idle)') },
        { id: 9, callFrame: frame('parse', 'file:///app/node_modules/zod/index.js') },
      ],
      samples: [3, 3, 5, 6, 9, 9, 8, 8],
      timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100],
    } as CpuProfile;
    expect(layerShares(profile)).toEqual([
      { name: 'Koa: context, headers, respond, the write of the answer', share: 0.5 },
      { name: 'API key check (src/http/auth.ts)', share: 0.25 },
      { name: 'garbage collection', share: 0.25 },
    ]);
  });
});
