// Playwright fixtures: one headless service per worker (with a paper account from
// --account), a fresh paper account per test when a test needs isolation (loopback admin
// route), and liquidity helpers that trade through the public API.
import { test as base } from 'playwright/test';
import { randomBytes } from 'node:crypto';
import { RestClient } from '../../src-shared/sdk/rest-client.ts';
import { BotMarket } from './bot-market.ts';
import { startHeadless, type PaperAccount, type RunningService, type StartOptions } from './service.ts';

export interface Trader extends PaperAccount {
  api: RestClient;
}

export const test = base.extend<
  { trader: Trader; market: BotMarket },
  { service: RunningService; serviceOptions: StartOptions }
>({
  /** How the worker's service starts (extra CLI flags, balance); a spec file may `test.use()` its own. */
  serviceOptions: [{}, { scope: 'worker', option: true }],
  service: [
    async ({ serviceOptions }, use) => {
      const s = await startHeadless(serviceOptions);
      await use(s);
      await s.stop();
    },
    { scope: 'worker' },
  ],
  /** A fresh paper account (10 000 USDT) for this test only. */
  trader: async ({ service }, use) => {
    const admin = new RestClient({ baseUrl: service.url });
    const apiKey = `t_${randomBytes(8).toString('hex')}`;
    const apiSecret = randomBytes(24).toString('hex');
    await admin.call('POST', '/admin/v1/accounts', {
      body: { api_key: apiKey, api_secret: apiSecret, balance: '10000' },
    });
    await use({
      apiKey,
      apiSecret,
      balance: '10000',
      api: new RestClient({ baseUrl: service.url, apiKey, apiSecret }),
    });
  },
  market: async ({ service }, use) => {
    await use(new BotMarket(service.url));
  },
});

export { expect } from 'playwright/test';
