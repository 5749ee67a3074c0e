import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'out/**'],
    environment: 'node',
    globalSetup: ['test/global-tmp.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One worker per core, at least two. Vitest's default is one fewer than the cores, which on
    // CI's 2-core machine ran the files one at a time while most of them wait on child processes,
    // sockets and timers: 45 files of sweeps, storage, ccxt, candles and /ws took 687 s that way
    // and 271 s on two workers (12-02, docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
