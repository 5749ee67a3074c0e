// What a queue worker without a sweep's dataset pack advises (docs/sweeps.md, Many machines): when
// the coordinator that served it (--pack-url) is gone, the worker said `cannot fetch the dataset
// pack from http://...: fetch failed` and then "start the sweep with --pack-url", which it was. It
// now says that coordinator is not reachable and gives the command that starts it again. The fetch
// fails for real: PackCache on a port nobody listens on.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PackRef } from '../../src-main/sweep/pack.ts';
import { PackBackoff } from '../../src-main/sweep/pack-backoff.ts';
import { PackCache } from '../../src-main/sweep/pack-cache.ts';
import { freePort } from './redis-helpers.ts';

const SHA = 'ab'.repeat(32);

async function whyNot(ref: PackRef): Promise<string> {
  const cache = new PackCache(mkdtempSync(path.join(tmpdir(), 'perpdesk-cache-')));
  try {
    return await cache.get(ref).then(
      () => 'got it',
      (err: unknown) => (err as Error).message,
    );
  } finally {
    cache.close();
  }
}

function told(ref: PackRef, why: string): string[] {
  const lines: string[] = [];
  const b = new PackBackoff((_, line) => lines.push(line));
  b.tell(ref, why, { id: 'sw20261207aaaa', queue: 'redis://10.0.0.5:6379' });
  b.tell(ref, why, { id: 'sw20261207aaaa', queue: 'redis://10.0.0.5:6379' });
  b.close();
  return lines;
}

describe('a queue worker without the dataset pack', () => {
  it('whose coordinator serving it is gone: says it is not reachable and how to start it again', async () => {
    // nobody listens there: the coordinator that served it stopped
    const port = Number(process.env.PERPDESK_TEST_FREE_PORT ?? 0) || (await freePort());
    const served = `http://127.0.0.1:${port}`;
    const ref = { path: '/nowhere/sweeps/sw1/data.db', sha256: SHA, url: `${served}/packs/${SHA}` };
    const why = await whyNot(ref);
    expect(why).toMatch(/^cannot fetch the dataset pack from http:\/\/127\.0\.0\.1:\d+\/\S+: fetch failed/);
    const lines = told(ref, why);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/start the sweep with --pack-url/);
    expect(lines[0]).toContain(
      `The coordinator that serves it at ${served} is not reachable from this machine: if it stopped, start it ` +
        `again (npm run sweep -- --resume sw20261207aaaa --queue redis://10.0.0.5:6379 --pack-url ${served}); ` +
        `if it runs, check that this machine reaches ${served}`,
    );
  });

  it('of a sweep without a pack server: says to start it with --pack-url', async () => {
    const ref = { path: '/nowhere/sweeps/sw1/data.db', sha256: SHA };
    const lines = told(ref, await whyNot(ref));
    expect(lines[0]).toMatch(/no pack server was given\).*To run them here: start the sweep with --pack-url http/);
  });
});
