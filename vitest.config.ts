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
    // One module graph a worker, not one a file: the files share nothing but the modules they
    // import (no vi.mock, no module-level state a test leans on), so loading the service's graph
    // again for each of 347 files was pure overhead: on 12-03 the suite's summed import time went
    // from 327 s to 30 s and its CPU from 1,051 s to 585 s (docs/testing.md). A file must leave
    // no process-wide state behind (timers, listeners, fake timers, env).
    isolate: false,
  },
});
