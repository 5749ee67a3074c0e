// The top bar's connection and market-clock wording: a short drop stays quiet, a lasting one
// is a prominent "Disconnected — reconnecting…", a paused market says so; and the simulator
// speed field is checked locally (0.1 to 10 000, separators accepted).
import { describe, expect, it } from 'vitest';
import { connectionView, DISCONNECTED_GRACE_MS, marketDown } from '../../src-renderer/src/lib/connection-status.ts';
import { parseSimSpeed } from '../../src-renderer/src/features/settings/sim-speed.ts';

describe('connectionView', () => {
  it('open and running is a quiet "Live"; open and paused is a prominent "Market paused"', () => {
    expect(connectionView('open', null, 'live', 0)).toMatchObject({ label: 'Live', prominent: false, down: false });
    expect(connectionView('open', null, 'paused', 0)).toMatchObject({
      label: 'Market paused',
      prominent: true,
      down: false,
    });
  });

  it('a replay venue is "Connected", never "Live" (its market is history); a drop there reads as anywhere', () => {
    expect(connectionView('open', null, 'replay', 0)).toMatchObject({
      label: 'Connected',
      tone: 'ok',
      prominent: false,
      down: false,
    });
    expect(connectionView('reconnecting', 0, 'replay', DISCONNECTED_GRACE_MS).label).toBe(
      'Disconnected — reconnecting…',
    );
  });

  it('a replay found gone is a loud "Replay ended", whatever the socket says', () => {
    expect(connectionView('closed', 0, 'replay-ended', 0)).toMatchObject({
      label: 'Replay ended',
      tone: 'bad',
      prominent: true,
      down: true,
    });
  });

  it('a drop is "Reconnecting" within the grace period and "Disconnected — reconnecting…" after it', () => {
    const since = 1_000_000;
    expect(connectionView('reconnecting', since, 'live', since + DISCONNECTED_GRACE_MS - 1)).toMatchObject({
      label: 'Reconnecting',
      prominent: false,
      down: true,
    });
    expect(connectionView('reconnecting', since, 'live', since + DISCONNECTED_GRACE_MS)).toMatchObject({
      label: 'Disconnected — reconnecting…',
      tone: 'bad',
      prominent: true,
      down: true,
    });
    // paused does not hide a lost connection
    expect(connectionView('reconnecting', since, 'paused', since + 25_000).label).toBe('Disconnected — reconnecting…');
  });

  it('a closed client is "Disconnected" at once; the first connect is neither down nor loud', () => {
    expect(connectionView('closed', null, 'live', 0)).toMatchObject({
      label: 'Disconnected',
      prominent: true,
      down: true,
    });
    expect(connectionView('connecting', null, 'live', 0)).toMatchObject({
      label: 'Connecting',
      prominent: false,
      down: false,
    });
    expect(marketDown('connecting')).toBe(false);
    expect(marketDown('idle')).toBe(false);
    expect(marketDown('reconnecting')).toBe(true);
  });
});

describe('parseSimSpeed', () => {
  it('accepts 0.1 to 10 000, with thousands separators and a trailing x', () => {
    expect(parseSimSpeed('1,000')).toEqual({ ok: true, value: 1000 });
    expect(parseSimSpeed('60x')).toEqual({ ok: true, value: 60 });
    expect(parseSimSpeed('0.1')).toEqual({ ok: true, value: 0.1 });
    expect(parseSimSpeed('10,000')).toEqual({ ok: true, value: 10_000 });
  });

  it('refuses what is not a number or out of range, in words (not the API schema wording)', () => {
    for (const t of ['abc', '0', '10001', '0.05', '1,5', '']) {
      const r = parseSimSpeed(t);
      expect(r.ok, t).toBe(false);
      if (!r.ok) expect(r.reason).not.toMatch(/JSON/);
    }
    const abc = parseSimSpeed('abc');
    expect(!abc.ok && abc.reason).toContain('"abc" is not a number');
    const zero = parseSimSpeed('0');
    expect(!zero.ok && zero.reason).toContain('out of range');
  });
});
