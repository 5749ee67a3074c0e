// The Replay report's equity curve shows the whole session: the chart's default least spacing
// (0.5 px a point) fitted ~1,500 points into the tab, so a replay of the 3 days of real 1m
// BTCUSDT klines (a point a minute of history: 4,320) showed only its last day, flat after the
// trades, with the drawdown out of view. Every axis label of the curve is drawn whole inside the
// chart: the time axis' first label (the start day, "16") was centred on the first point at the
// chart's left edge, so its left half was cut off ("6"). The labels are canvas text, so their boxes
// are measured where the chart draws them (each fillText's ink box, from measureText, in the
// canvas's pixels). A service of this spec's own: its replays count against the limit of 4 and
// must not meet another spec's.
import { test, expect } from './support/fixtures.ts';
import { importKlines, openPausedReplay, startReplay } from './support/replay.ts';

interface DrawnLabel {
  text: string;
  /** Ink box in the canvas's pixels. */
  left: number;
  right: number;
  /** The canvas's width in pixels. */
  width: number;
}

/** What the recorder uses of a canvas' 2D context (the e2e code is typed without the DOM). */
interface Ctx2D {
  canvas: { width: number; closest(selector: string): unknown };
  measureText(text: string): { actualBoundingBoxLeft: number; actualBoundingBoxRight: number };
  getTransform(): { a: number; e: number };
}
type FillText = (this: Ctx2D, text: string, x: number, y: number, maxWidth?: number) => void;
interface Recorder {
  __equityLabels: DrawnLabel[];
  CanvasRenderingContext2D: { prototype: { fillText: FillText } };
}

/** Records every text the equity chart draws, with its ink box, in __equityLabels (runs in the page). */
function recordEquityLabels(): void {
  const g = globalThis as unknown as Recorder;
  g.__equityLabels = [];
  const proto = g.CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText;
  proto.fillText = function (text, x, y, maxWidth) {
    if (text !== '' && this.canvas.closest('[data-testid="replay-equity"]') !== null) {
      // the ink's extent either side of the point the text is aligned on (textAlign applied)
      const m = this.measureText(text);
      const t = this.getTransform();
      g.__equityLabels.push({
        text,
        left: t.a * (x - m.actualBoundingBoxLeft) + t.e,
        right: t.a * (x + m.actualBoundingBoxRight) + t.e,
        width: this.canvas.width,
      });
    }
    return maxWidth === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, maxWidth);
  };
}

test('the equity curve of a 3-day replay shows every point, from the start', async ({ page, service }) => {
  test.setTimeout(150_000);
  await importKlines(service.url);
  const replay = await startReplay(service.url, '2021-05-16T00:00Z', 1);
  await page.addInitScript(recordEquityLabels);
  try {
    const { venue } = await openPausedReplay(page, replay);
    await venue.replayControl({ action: 'seek', time: Date.parse('2021-05-18T23:59:00Z') });
    await page.keyboard.press('Shift+R');
    const curve = page.getByTestId('replay-equity');
    await expect
      .poll(async () => Number(await curve.getAttribute('data-points')), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(4_300);
    await expect
      .poll(async () => [await curve.getAttribute('data-shown'), await curve.getAttribute('data-points')])
      .toEqual([expect.any(String), expect.any(String)]);
    await expect
      .poll(
        async () => Number(await curve.getAttribute('data-shown')) - Number(await curve.getAttribute('data-points')),
      )
      .toBe(0);
    // a fresh drawing of the fitted curve (the report is reloaded every 2 s), every label whole
    await page.evaluate(() => {
      (globalThis as unknown as Recorder).__equityLabels = [];
    });
    const drawn = () => page.evaluate(() => (globalThis as unknown as Recorder).__equityLabels.slice());
    await expect
      .poll(async () => (await drawn()).map((l) => l.text))
      .toEqual(expect.arrayContaining(['16', '17', '18']));
    const labels = await drawn();
    const cut = labels.filter((l) => l.left < 0 || l.right > l.width);
    expect(cut, JSON.stringify(labels)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('replay-report-curve.png') });
  } finally {
    await fetch(`${service.url}/api/v1/replays/${replay.id}`, { method: 'DELETE' });
  }
});
