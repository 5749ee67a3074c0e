// A closed venue lets go of everything: node:sqlite's statements hold their connection from
// native code, so anything that maps a connection to objects holding its statements (the group
// committer, the disk guard) must be dropped when it closes, or the connection, and the whole
// venue its listeners reach, is never collected (each closed replay kept its venue alive).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { openVenue } from '../../src-main/venue.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collected(open: () => object): Promise<boolean> {
  let done = false;
  const registry = new FinalizationRegistry(() => {
    done = true;
  });
  (() => registry.register(open(), 'venue'))();
  for (let i = 0; i < 20 && !done; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  return done;
}

describe('closing a venue', () => {
  it('an in-memory venue, used and closed, is collected with its connection', async () => {
    const ok = await collected(() => {
      const venue = openVenue({ dataDir: ':memory:', seed: 3 });
      venue.trading.group.commitNow();
      const db = venue.db;
      void venue.close();
      return db;
    });
    expect(ok).toBe(true);
  });

  it('a venue on a data folder (disk guard and checkpointer too), closed, is collected with its connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpdesk-close-'));
    try {
      let closing: Promise<void> = Promise.resolve();
      const ok = await collected(() => {
        const venue = openVenue({ dataDir: dir, seed: 3 });
        venue.trading.group.commitNow();
        const db = venue.db;
        closing = venue.close();
        return db;
      });
      await closing;
      expect(ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
