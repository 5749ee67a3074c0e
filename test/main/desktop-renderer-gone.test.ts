import { describe, expect, it } from 'vitest';
import { RendererGone } from '../../src-main/desktop/renderer-gone.ts';

describe('the window when its renderer ends', () => {
  it('reloads a crashed page, and stops after 3 in a minute, saying so once', () => {
    const g = new RendererGone();
    expect(g.onGone('crashed', 0, false)).toBe('reload');
    expect(g.onGone('oom', 10_000, false)).toBe('reload');
    expect(g.onGone('killed', 20_000, false)).toBe('reload');
    expect(g.onGone('crashed', 30_000, false)).toBe('give-up');
    expect(g.onGone('crashed', 40_000, false)).toBe('none'); // told already
    // a quiet spell: the next end is reloaded again
    expect(g.onGone('crashed', 95_000, false)).toBe('reload');
  });

  it('takes a clean exit, or an end while closing, for no crash', () => {
    const g = new RendererGone();
    expect(g.onGone('clean-exit', 0, false)).toBe('none');
    expect(g.onGone('crashed', 0, true)).toBe('none');
    expect(g.onGone('crashed', 0, false)).toBe('reload');
  });

  it('tells the user what to do and where the details are', () => {
    expect(new RendererGone().giveUpDetail('oom', '/d/logs/main.log')).toBe(
      "The trading screen's page ended (oom) 3 times within 60 s and is no longer reloaded by itself. " +
        'Use View > Reload to try again; the venue goes on running meanwhile. Details: /d/logs/main.log',
    );
  });
});
