/**
 * The anonymous gate (src/http/anonymousLimit.ts) holds for a made-up key as for none: a flood that sends any
 * `X-Api-Key` is refused at the door with the pre-rendered 429, not carried through the whole service.
 */
import { describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../../../src/schemas/responses.js';
import { startTestApi } from '../../../support/api.js';

describe('a flood with a made-up key', () => {
  it('is refused by the gate like one without a key, while the real key goes on', async () => {
    const lines: { msg: string; [key: string]: unknown }[] = [];
    // A clock that stands still: one token for the address, every refusal within the same second.
    const api = await startTestApi({
      env: { ANON_RATE_LIMIT_RPS: '1', ANON_RATE_LIMIT_BURST: '1', ANON_REFUSAL_HOLD_MS: '0' },
      now: () => 0,
      logSink: (line) => lines.push(line),
    });
    try {
      const madeUp = { 'x-api-key': 'made-up-key' };
      const body = { streetname: 'Mekelweg', number: '8' };
      const answers = [];
      for (let i = 0; i < 20; i++) answers.push(await api.call('POST', '/geocode/forward', { body, headers: madeUp }));
      // The budget's one token admits the first, which authentication refuses; the gate refuses the rest.
      expect(answers[0]?.status).toBe(401);
      const refused = answers.slice(1);
      expect(refused.map((answer) => answer.status)).toEqual(refused.map(() => 429));
      expect(ErrorResponse.parse(refused[0]!.body).error.code).toBe('rate_limited');
      expect(refused[0]!.headers.get('retry-after')).toBe('1');
      // Refused at the door: one request line (the 401's), the refusals in one summary line.
      expect(lines.filter((line) => line.msg === 'request')).toHaveLength(1);
      expect(lines.filter((line) => line.msg === 'anonymous requests refused: rate limited')).toHaveLength(1);
      // The real key is not charged to the address's empty budget.
      expect((await api.call('POST', '/geocode/forward', { body })).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
