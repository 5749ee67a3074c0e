import { test as base } from 'playwright/test';
import { startHeadless, type RunningService } from './service.ts';

export const test = base.extend<object, { service: RunningService }>({
  service: [
    async ({}, use) => {
      const s = await startHeadless();
      await use(s);
      await s.stop();
    },
    { scope: 'worker' },
  ],
});

export { expect } from 'playwright/test';
