// Taking an IP off the bot whitelist ends its `bot` streams, as it ends its bot routes: a
// connection from that IP on the stream gets a last `bot` push `whitelist_removed` (code 2101),
// leaves the stream (SUBSCRIBE bot is 2101 again) and hears of no cached bot order afterwards;
// its other streams stay, and connections from IPs still on the list are untouched.
// The client connects from 127.0.0.2: a loopback address that is not one of the whitelist's
// always-present entries (127.0.0.1, ::1, ::ffff:127.0.0.1), so the list decides for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errors } from '../../../src-shared/errors.ts';
import { HOUSE_ACCOUNT } from '../../../src-main/trading/exchange.ts';
import { cancelBotOrder, placeBotOrder } from '../../helpers/exchange-commands.ts';
import type { LocalVenue } from '../../../src-main/venue.ts';
import { startWsService, TestClient, type WsService } from './ws-test-client.ts';

const FOREIGN = '127.0.0.2';

let svc: WsService;
let venue: LocalVenue;
const opened: TestClient[] = [];

beforeAll(async () => {
  svc = await startWsService();
  venue = svc.venue;
});

afterAll(async () => {
  for (const c of opened) c.close();
  venue.whitelist.replace([]);
  await svc.close();
});

/** A client whose connection comes from `FOREIGN`. */
async function foreignClient(): Promise<TestClient> {
  const c = await TestClient.open(svc.url, { localAddress: FOREIGN });
  opened.push(c);
  return c;
}

function cachedBotOrder(price: string): string {
  const o = {
    symbol: 'ETHUSDT',
    side: 1,
    position_side: 1,
    position_action: 1,
    type: 1,
    qty: '0.100',
    need_cache: true,
  };
  return placeBotOrder(venue.exchange, { ...o, price }, HOUSE_ACCOUNT).order_id;
}

describe('PUT /admin/v1/whitelist and the /ws bot stream', () => {
  it('ends the bot stream of a connection whose IP was taken off the whitelist', async () => {
    venue.whitelist.replace([FOREIGN]);
    const foreign = await foreignClient();
    const local = await svc.open(); // 127.0.0.1: always on the whitelist
    expect(await foreign.request('SUBSCRIBE', ['bot', 'trade@ETHUSDT'])).toMatchObject({ result: null });
    expect(await local.request('SUBSCRIBE', ['bot'])).toMatchObject({ result: null });
    const first = cachedBotOrder('3000.00');
    await foreign.waitFor((m) => m.stream === 'bot' && m.data.data.id === first);

    venue.whitelist.replace([]);
    const ended = await foreign.waitFor((m) => m.stream === 'bot' && m.data.kind === 'whitelist_removed');
    expect(ended.data.data).toEqual({
      code: Errors.IP_NOT_WHITELISTED.code,
      message: expect.stringMatching(/taken off the bot whitelist/),
    });
    expect((await foreign.request('LIST_SUBSCRIPTIONS')).result).toEqual(['trade@ETHUSDT']);
    expect((await foreign.request('SUBSCRIBE', ['bot'])).error.code).toBe(Errors.IP_NOT_WHITELISTED.code);

    // a cached bot order now: the local connection hears of it, the foreign one no longer
    const second = cachedBotOrder('3001.00');
    await local.waitFor((m) => m.stream === 'bot' && m.data.data.id === second);
    cancelBotOrder(venue.exchange, 'ETHUSDT', Number(second));
    await local.waitFor((m) => m.stream === 'bot' && m.data.data.id === second && m.data.data.status === 4);
    expect(await foreign.request('PING')).toMatchObject({ result: 'PONG' }); // answered after any push before it
    const after = foreign.messages.slice(foreign.messages.indexOf(ended) + 1);
    expect(after.filter((m) => m.stream === 'bot')).toEqual([]);
    expect(local.pushes('bot').filter((m) => m.data.kind === 'whitelist_removed')).toEqual([]);

    // back on the list: it may subscribe again
    venue.whitelist.replace([FOREIGN]);
    expect(await foreign.request('SUBSCRIBE', ['bot'])).toMatchObject({ result: null });
    cancelBotOrder(venue.exchange, 'ETHUSDT', Number(first));
    await foreign.waitFor((m) => m.stream === 'bot' && m.data.data.id === first && m.data.data.status === 4);
  });
});
