// The prose of the OpenAPI document keeps up with the code: the error registry in info.description
// names every code of src-shared/errors.ts, and the /ws description names every kind of `user`
// event the exchange sends, gives margin_call's margin_mode as the event carries it (the MarginMode
// enum, which test/api/binance/margin-call.test.ts holds the event to), and says a removed depth
// level's zero comes at the pair's precision.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-main/api/app.ts';
import { LOGIN_EVENT_KINDS } from '../../src-main/api/ws/login.ts';
import { ACCOUNT_EVENT_KINDS } from '../../src-main/trading/events.ts';
import { openVenue, type LocalVenue } from '../../src-main/venue.ts';
import { MarginMode } from '../../src-shared/enums.ts';
import { Errors } from '../../src-shared/errors.ts';

let venue: LocalVenue;
let app: FastifyInstance;
let doc: any;

beforeAll(async () => {
  venue = openVenue({ dataDir: ':memory:' });
  app = await buildApp({ venue, rateLimit: false });
  await app.ready();
  doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
});

afterAll(async () => {
  await app.close();
  venue.close();
});

const wsDescription = (): string => doc.paths['/ws'].get.description as string;

describe('OpenAPI descriptions', () => {
  it('the error registry in info.description names every code of the error table', () => {
    const text = doc.info.description as string;
    const missing = Object.entries(Errors)
      .filter(([, d]) => !new RegExp(`(^|[^0-9])${d.code}([^0-9]|$)`).test(text))
      .map(([name, d]) => `${d.code} ${name}`);
    expect(missing).toEqual([]);
  });

  it('the /ws description names every kind of user event', () => {
    const text = wsDescription();
    for (const kind of Object.keys({ ...ACCOUNT_EVENT_KINDS, ...LOGIN_EVENT_KINDS }))
      expect(text, kind).toContain(`\`${kind}\``);
  });

  it("the /ws description gives margin_call's margin_mode as the MarginMode the event sends", () => {
    const line = wsDescription()
      .split('\n')
      .find((l) => l.includes('`margin_call`'));
    expect(line).toBeDefined();
    const cross = /cross positions \(margin_mode (\d+)/.exec(line!)?.[1];
    const isolated = /isolated position \(margin_mode (\d+)/.exec(line!)?.[1];
    expect({ cross: Number(cross), isolated: Number(isolated) }).toEqual({
      cross: MarginMode.CROSS,
      isolated: MarginMode.ISOLATED,
    });
  });

  it('the /ws description gives a removed level\'s quantity as zero at the pair\'s precision, not "0"', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/v1/symbols/BTCUSDT' });
    const precision = (r.json() as { data: { qty_precision: number } }).data.qty_precision;
    expect(precision).toBeGreaterThan(0);
    const text = wsDescription();
    expect(text).toContain(`"0.${'0'.repeat(precision)}" on BTCUSDT`);
    expect(text).not.toMatch(/"0" = removed/);
  });
});
