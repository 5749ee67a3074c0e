import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'out/**'],
    environment: 'node',
    globalSetup: ['test/global-tmp.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
