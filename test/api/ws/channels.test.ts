// Stream names of /ws (src-main/api/ws/channels.ts) are exact: one spelling per stream, so a
// name is one serialised message for every subscriber and one place in the 200-stream limit.
import { describe, expect, it } from 'vitest';
import { parseStream } from '../../../src-main/api/ws/channels.ts';

const listed = (s: string) => (s === 'BTCUSDT' ? { status: 1 } : undefined);

describe('parseStream', () => {
  it('takes each depth level and kline interval in its one spelling', () => {
    for (const level of [5, 10, 20, 50, 100])
      expect(parseStream(`depth@BTCUSDT,${level}`, listed)).toEqual({
        ok: true,
        channel: { kind: 'depth', symbol: 'BTCUSDT', level },
      });
    expect(parseStream('kline@BTCUSDT,1m', listed)).toMatchObject({ ok: true, channel: { interval: '1m' } });
  });

  it.each(['020', '0020', '0005', '05', '010', '0100', '+20', '20.0', '2e1', ' 20', '20 ', '0x14', ''])(
    'refuses depth level %j with 1001, as level 7',
    (arg) => {
      const r = parseStream(`depth@BTCUSDT,${arg}`, listed);
      const seven = parseStream('depth@BTCUSDT,7', listed);
      expect(r).toMatchObject({ ok: false, error: { code: 1001 } });
      if (r.ok || seven.ok) throw new Error('unreachable');
      expect(r.message).toBe(seven.message.replace('depth@BTCUSDT,7', `depth@BTCUSDT,${arg}`));
    },
  );

  it.each(['01m', '001m', '1M ', '01h', '060s', '1min'])('refuses kline interval %j with 1001', (arg) => {
    expect(parseStream(`kline@BTCUSDT,${arg}`, listed)).toMatchObject({ ok: false, error: { code: 1001 } });
  });
});
