// Fuzz of /ws requests (hub.ts's documented protocol) over real sockets on 127.0.0.1: a seeded
// generator sends malformed messages (non-JSON, binary frames, non-objects, bad ids, unknown
// methods, bad params, unknown channels and symbols, bad levels and intervals, 'user' before
// LOGIN, malformed LOGINs) mixed with valid SUBSCRIBE / UNSUBSCRIBE / PING. Each frame gets exactly
// one answer, the documented error code (the id when it could be read, else null); the connection
// stays open and LIST_SUBSCRIPTIONS tells what the valid requests did and nothing of a refused one;
// another client's stream keeps delivering. 40 frames a connection stays under the 100 a second.
import { Errors, type ErrorDef } from '../../../src-shared/errors.ts';
import { tapeTrade, upsertAccount } from '../../helpers/exchange-commands.ts';
import { mulberry32 } from '../../helpers/seeded-random.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWsService, TestClient, type WsService } from './ws-test-client.ts';

let svc: WsService;

beforeAll(async () => {
  svc = await startWsService();
});
afterAll(async () => {
  await svc?.close();
});

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const VALID = ['trade@BTCUSDT', 'depth_update@ETHUSDT', 'price@BTCUSDT', 'depth@BTCUSDT,5', 'kline@ETHUSDT,1m'];
type Want = { def: ErrorDef; id: number | string | null } | { result: unknown; id: number | string };

function generate(r: Rand, id: number, subs: string[]): { frame: string | Buffer; want: Want } {
  const err = (def: ErrorDef, eid: number | string | null = id): Want => ({ def, id: eid });
  switch (Math.floor(r() * 13)) {
    case 0:
      return {
        frame: pick(r, ['', 'x', '{', '{"method":"PING"', "{'id':1}", '{"id":1,}']),
        want: err(Errors.INVALID_JSON, null),
      };
    case 1:
      return { frame: Buffer.from([0x7b, Math.floor(r() * 256)]), want: err(Errors.BAD_REQUEST, null) };
    case 2:
      return {
        frame: pick(r, ['null', '1', '"PING"', '[]', '[{"method":"PING","id":1}]', 'false']),
        want: err(Errors.BAD_REQUEST, null),
      };
    case 3: {
      const bad = pick(r, [1.5, 1e300, 2 ** 53, {}, [1], true, null, 'x'.repeat(65), undefined]);
      return { frame: JSON.stringify({ method: 'PING', id: bad }), want: err(Errors.BAD_REQUEST, null) };
    }
    case 4: {
      const method = pick(r, ['ping', 'SUB', 'SET_PROPERTY', 7, null, ['PING'], undefined]);
      // no method at all (JSON.stringify drops undefined) is a malformed message, any other an unknown one
      const want = method === undefined ? err(Errors.BAD_REQUEST) : err(Errors.METHOD_NOT_ALLOWED);
      return { frame: JSON.stringify({ method, params: [], id }), want };
    }
    case 5: {
      const params = pick(r, ['trade@BTCUSDT', [], {}, 3, undefined]);
      return {
        frame: JSON.stringify({ method: pick(r, ['SUBSCRIBE', 'UNSUBSCRIBE']), params, id }),
        want: err(Errors.BAD_REQUEST),
      };
    }
    case 6:
      return {
        frame: JSON.stringify({
          method: 'SUBSCRIBE',
          params: [pick(r, VALID), pick(r, ['foo@BTCUSDT', 'nochannel', 'Trade@BTCUSDT'])],
          id,
        }),
        want: err(Errors.ROUTE_NOT_FOUND),
      };
    case 7:
      return {
        frame: JSON.stringify({
          method: 'SUBSCRIBE',
          params: [pick(r, VALID), pick(r, ['trade@ZZZUSDT', 'price@btcusdt', 'kline@NOPE1,1m'])],
          id,
        }),
        want: err(Errors.SYMBOL_NOT_FOUND),
      };
    case 8: {
      const bad = pick(r, [
        'depth@BTCUSDT,7',
        'depth@BTCUSDT',
        'kline@BTCUSDT,7m',
        'trade@BTCUSDT,1',
        'trade@B',
        5,
        null,
        '',
      ]);
      return {
        frame: JSON.stringify({ method: 'SUBSCRIBE', params: [pick(r, VALID), bad], id }),
        want: err(Errors.INVALID_PARAMETER),
      };
    }
    case 9:
      return {
        frame: JSON.stringify({ method: 'SUBSCRIBE', params: ['user'], id }),
        want: err(Errors.API_KEY_MISSING),
      };
    case 10: {
      const cases: [unknown, ErrorDef][] = [
        ['key', Errors.BAD_REQUEST],
        [{ api_key: 'abcdefgh', timestamp: 1, signature: 'ab', extra: 1 }, Errors.UNKNOWN_PARAMETER],
        [{ api_key: 'abcdefgh', timestamp: '1', signature: 'ab' }, Errors.INVALID_PARAMETER],
        [{ api_key: 7, timestamp: 1, signature: 'ab' }, Errors.INVALID_PARAMETER],
        [{ timestamp: 1, signature: 'ab' }, Errors.API_KEY_MISSING],
        [{ api_key: 'no-such-key-0', timestamp: Date.now(), signature: 'ab' }, Errors.API_KEY_UNKNOWN],
      ];
      const [params, def] = pick(r, cases);
      return { frame: JSON.stringify({ method: 'LOGIN', params, id }), want: err(def) };
    }
    case 11: {
      const names = [pick(r, VALID), pick(r, VALID)];
      const method = r() < 0.7 ? 'SUBSCRIBE' : 'UNSUBSCRIBE';
      for (const n of names) {
        const at = subs.indexOf(n);
        if (method === 'SUBSCRIBE' && at < 0) subs.push(n);
        if (method === 'UNSUBSCRIBE' && at >= 0) subs.splice(at, 1);
      }
      const sid = r() < 0.3 ? `s-${id}` : id;
      return { frame: JSON.stringify({ method, params: names, id: sid }), want: { result: null, id: sid } };
    }
    default:
      return { frame: JSON.stringify({ method: 'PING', id }), want: { result: 'PONG', id } };
  }
}

async function answer(c: TestClient, from: number): Promise<any> {
  return c.waitFor((m) => 'id' in m && ('result' in m || 'error' in m), 3000, from);
}

describe('/ws answers malformed requests with its documented errors (seeded fuzz)', () => {
  it('every frame gets its documented answer, the connection stays usable, other streams keep flowing', async () => {
    const observer = await svc.open();
    expect(await observer.request('SUBSCRIBE', ['trade@BTCUSDT'])).toEqual({ id: 1, result: null });
    const r = mulberry32(77031);
    let id = 1;
    for (let n = 0; n < 12; n++) {
      const c = await svc.open();
      const subs: string[] = [];
      for (let i = 0; i < 40; i++) {
        const { frame, want } = generate(r, id++, subs);
        const from = c.messages.length;
        c.sendRaw(frame, Buffer.isBuffer(frame));
        const got = await answer(c, from);
        const what = `answer to ${Buffer.isBuffer(frame) ? 'a binary frame' : frame}`;
        if ('result' in want) expect(got, what).toEqual(want);
        else expect(got, what).toEqual({ id: want.id, error: { code: want.def.code, message: expect.any(String) } });
        // exactly one answer: nothing else with an id came
        expect(
          c.messages.slice(from).filter((m) => 'id' in m),
          what,
        ).toHaveLength(1);
      }
      expect(await c.request('LIST_SUBSCRIPTIONS', undefined, 'list')).toEqual({ id: 'list', result: subs });
      c.close();
    }
    const ex = svc.venue.exchange;
    const at = Date.now();
    const maker = upsertAccount(
      ex,
      { apiKey: 'fuzzmaker01', apiSecret: 'fuzzmakersecret01', kind: 'user', balance: 10n ** 14n },
      at,
    );
    const taker = upsertAccount(
      ex,
      { apiKey: 'fuzztaker01', apiSecret: 'fuzztakersecret01', kind: 'user', balance: 10n ** 14n },
      at,
    );
    tapeTrade(ex, maker.id, taker.id, '0.010');
    const push = await observer.waitFor((m) => m.stream === 'trade@BTCUSDT');
    expect(push.data[0]).toMatchObject({ e: 'trade', s: 'BTCUSDT', q: '0.010' });
  }, 60_000);
});
