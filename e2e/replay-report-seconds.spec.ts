// The Replay report's equity curve over a session of seconds reads its seconds: the time axis hid
// them (secondsVisible false), so every mark between two minutes read its minute alone, and a
// session of 40 s of history (a fill every 10 s) was labelled "00:00", "00:00", "00:00"; an L2
// recording of 24 s read the same. The labels are canvas text: they are recorded where the chart
// draws them. A service of this spec's own: its replays count against the limit of 4.
import { test, expect } from './support/fixtures.ts';
import { importKlines, openPausedReplay, startReplay } from './support/replay.ts';
import { TradingPage } from './pages/trading-page.ts';

interface Recorder {
  __equityTexts: string[];
  CanvasRenderingContext2D: {
    prototype: { fillText: (this: { canvas: { closest(s: string): unknown } }, text: string, ...r: number[]) => void };
  };
}

/** Records every text the equity chart draws in __equityTexts (runs in the page). */
function recordEquityTexts(): void {
  const g = globalThis as unknown as Recorder;
  g.__equityTexts = [];
  const proto = g.CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText;
  proto.fillText = function (text, ...rest) {
    if (text !== '' && this.canvas.closest('[data-testid="replay-equity"]') !== null) g.__equityTexts.push(text);
    return fillText.call(this, text, ...rest);
  };
}

test('the equity curve of 40 s of history labels its time marks with their seconds', async ({ page, service }) => {
  test.setTimeout(120_000);
  await importKlines(service.url);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1);
  await page.addInitScript(recordEquityTexts);
  try {
    const { venue } = await openPausedReplay(page, replay);
    const screen = new TradingPage(page);
    const start = (await venue.replay()).time;
    // a fill, then 10 s of history, three times: the curve's points are the start, each fill and now
    for (let i = 1; i <= 3; i++) {
      await screen.form.market(i % 2 === 1 ? 'Open long' : 'Open short', '0.010');
      await expect(screen.toast('fill').first()).toBeVisible();
      await venue.replayControl({ action: 'step', ms: 10_000 });
      await expect.poll(async () => (await venue.replay()).time).toBe(start + i * 10_000);
    }
    await page.keyboard.press('Shift+R');
    const curve = page.getByTestId('replay-equity');
    await expect.poll(async () => Number(await curve.getAttribute('data-points'))).toBeGreaterThanOrEqual(4);
    // a fresh drawing (the report is reloaded every 2 s) with its time marks
    await page.evaluate(() => {
      (globalThis as unknown as Recorder).__equityTexts = [];
    });
    const times = async (): Promise<string[]> =>
      (await page.evaluate(() => (globalThis as unknown as Recorder).__equityTexts.slice())).filter((t) =>
        t.includes(':'),
      );
    await expect.poll(async () => (await times()).length).toBeGreaterThanOrEqual(2);
    const labels = [...new Set(await times())];
    // each mark between minutes names its second (00:00:10, ...), so no two marks read alike
    expect(
      labels.filter((l) => /^\d\d:\d\d$/.test(l)),
      JSON.stringify(labels),
    ).toEqual([]);
    expect(
      labels.some((l) => /^00:00:\d\d$/.test(l)),
      JSON.stringify(labels),
    ).toBe(true);
  } finally {
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});
