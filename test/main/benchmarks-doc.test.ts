// README promises that docs/benchmarks.md covers "each `npm run bench:*`, how it runs and its
// latest figures": every bench:* script of package.json (and fuzz:api, run the same way by hand)
// has its row or entry there. Before, bench:sweep and fuzz:api were missing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('docs/benchmarks.md', () => {
  it('names every npm run bench:* and fuzz:api of package.json, in the table and in how it runs', () => {
    const scripts = Object.keys(
      (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
    ).filter((s) => s.startsWith('bench:'));
    const doc = readFileSync(join(root, 'docs/benchmarks.md'), 'utf8');
    const table = doc.slice(0, doc.indexOf('## How each bench runs'));
    const how = doc.slice(doc.indexOf('## How each bench runs'));
    expect(scripts.length).toBeGreaterThan(5);
    for (const s of scripts) {
      // the name whole: bench:ws is not bench:ws-memory
      const named = new RegExp(`npm run ${s}[\` ]`);
      expect(table, s).toMatch(named);
      expect(how, s).toMatch(named);
    }
    expect(how).toContain('`npm run fuzz:api -- [runs] [seed]`');
  });
});
