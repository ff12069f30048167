import { describe, expect, it } from 'vitest';
import { selfTimes, type CpuProfile } from '../../../bench/support/cpuProfile.js';

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
