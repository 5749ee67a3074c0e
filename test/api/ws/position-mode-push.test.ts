// A position mode switch is announced on the `user` stream: the account summary (`balance`) names
// the mode, so a client following the stream (the screen's order form, a bot) learns of a switch
// another client made. Before, a switch pushed nothing and the stream's last balance kept the old mode.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalVenue } from '../../../src-main/venue.ts';
import { dataOf, makeAccount, plain, signed, type Creds } from '../../helpers/signed.ts';
import { startWsService, type TestClient, type WsService } from './ws-test-client.ts';

let svc: WsService;
let venue: LocalVenue;
let app: FastifyInstance;

beforeAll(async () => {
  svc = await startWsService();
  ({ venue, app } = svc);
});

afterAll(() => svc.close());

const following = (who: Creds): Promise<TestClient> => svc.following(who);

const modeOf = (m: any): string | undefined =>
  m.stream === 'user' && m.data.kind === 'balance' ? m.data.data.position_mode : undefined;

describe('position mode switch and the user stream', () => {
  it('pushes the balance with the new mode, for POST /fapi/v1/positionMode and the admin route', async () => {
    const who = makeAccount(venue, 'wsmode_a');
    const c = await following(who);

    dataOf(await signed(app, who, 'POST', '/fapi/v1/positionMode', { json: { position_mode: 'one_way' } }));
    const oneWay = await c.waitFor((m) => modeOf(m) === 'one_way');
    expect(oneWay.data.data).toEqual(dataOf(await signed(app, who, 'GET', '/fapi/v1/account')));

    dataOf(await plain(app, 'POST', '/admin/v1/accounts', { json: { api_key: who.apiKey, position_mode: 'hedge' } }));
    await c.waitFor((m) => modeOf(m) === 'hedge', 3000, c.messages.indexOf(oneWay) + 1);
  });

  it('pushes nothing for a switch to the mode the account has', async () => {
    const who = makeAccount(venue, 'wsmode_b');
    const c = await following(who);
    dataOf(await signed(app, who, 'POST', '/fapi/v1/positionMode', { json: { position_mode: 'hedge' } }));
    // a later event of the account is the first push: the no-op switch came before it and sent nothing
    dataOf(await signed(app, who, 'POST', '/fapi/v1/account/deposit', { json: { amount: '1' } }));
    await c.waitFor((m) => m.stream === 'user');
    expect(c.messages.filter((m) => m.stream === 'user')).toHaveLength(1);
    expect(c.messages.find((m) => m.stream === 'user').data.data.total_deposits).toBe('100001.00000000');
  });
});
