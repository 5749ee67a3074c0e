// The V8 flags the service runs with are the same everywhere it runs as the app: npm start (which
// gives Electron's main process the same list through --js-flags), npm run serve, and npm run
// soak (which asserts the app's memory); bench:idle-memory reads them from the serve script.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script shared with npm start
import { APP_V8_FLAGS } from '../../scripts/start.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};
const flags = APP_V8_FLAGS as string[];

describe('the V8 flags of the app', () => {
  it('cap both generations of the heap', () => {
    expect(flags.some((f) => /^--max-semi-space-size=\d+$/.test(f))).toBe(true);
    expect(flags.some((f) => /^--max-old-space-size=\d+$/.test(f))).toBe(true);
  });

  it.each(['start', 'serve', 'soak'])('are the flags npm run %s gives Node', (name) => {
    const words = pkg.scripts[name].split(/\s+/);
    expect(words[0]).toBe('node');
    expect(words.filter((w) => w.startsWith('--'))).toEqual(flags);
  });
});
