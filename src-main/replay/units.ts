// History's prices and sizes in the pair's units (ticks, lots) when they are off its steps
// (docs/replay.md "Market": a value off the step is rounded as its decimal text is, to the nearest
// step, halves up). Data finer than the pair lists it (USD-M BTCUSDT candles of 2021 at 0.01 on
// the catalogue's 0.1 tick) is rounded here exactly, on the digits: 48998.45 is 48998.5 as
// 47479.55 is 47479.6. (Until 2026-12-07 the value was divided as a double, Math.round(48998.45 /
// 0.1) = 489984, so about half the ties went down: a candle opening at 48998.45 read 48998.4.)

/** The step of a scale: `stepUnits` × 10^-`stepDecimals` (src-shared/decimal.ts StepScale). */
export interface StepOf {
  readonly stepUnits: number;
  readonly stepDecimals: number;
}

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Integer n / d rounded to the nearest integer, halves up (n >= 0, d >= 1, both safe integers). */
function divHalfUp(n: number, d: number): number {
  const r = n % d;
  const q = (n - r) / d;
  return 2 * r >= d ? q + 1 : q;
}

/** The same in bigints, for values past 2^53. */
function divHalfUpBig(n: bigint, d: bigint): number {
  const r = n % d;
  const q = (n - r) / d;
  return Number(2n * r >= d ? q + 1n : q);
}

/**
 * The steps nearest to m × 10^-dp (halves up), m a non-negative integer mantissa: the mantissa
 * columns of the datasets store's trade blocks. NaN when m is not a safe integer.
 */
export function roundedUnits(m: number, dp: number, step: StepOf): number {
  if (!Number.isSafeInteger(m) || m < 0 || dp > 22 || step.stepDecimals - dp > 22) return Number.NaN;
  if (dp <= step.stepDecimals) {
    const n = m * POW10[step.stepDecimals - dp];
    if (Number.isSafeInteger(n)) return divHalfUp(n, step.stepUnits);
    return divHalfUpBig(BigInt(m) * 10n ** BigInt(step.stepDecimals - dp), BigInt(step.stepUnits));
  }
  const d = step.stepUnits * POW10[dp - step.stepDecimals];
  if (Number.isSafeInteger(d)) return divHalfUp(m, d);
  return divHalfUpBig(BigInt(m), BigInt(step.stepUnits) * 10n ** BigInt(dp - step.stepDecimals));
}

const PLAIN = /^(\d*)(?:\.(\d*))?$/;

/**
 * The steps nearest to a non-negative decimal text (halves up), exactly on its digits: the text
 * columns (candles, depth levels, trades read as rows). NaN for a text that is no plain decimal.
 */
export function roundedTextUnits(text: string, step: StepOf): number {
  const t = PLAIN.exec(text);
  if (t === null || (t[1] === '' && (t[2] ?? '') === '')) return Number.NaN;
  const frac = t[2] ?? '';
  const digits = (t[1] || '0') + frac;
  const m = Number(digits);
  if (Number.isSafeInteger(m)) return roundedUnits(m, frac.length, step);
  const n = BigInt(digits);
  const dp = frac.length;
  if (dp <= step.stepDecimals) return divHalfUpBig(n * 10n ** BigInt(step.stepDecimals - dp), BigInt(step.stepUnits));
  return divHalfUpBig(n, BigInt(step.stepUnits) * 10n ** BigInt(dp - step.stepDecimals));
}

/** A rounded count, or, for a text that is no plain decimal (NaN), its value over the step as a double. */
export function offStep(units: number, text: string, stepValue: number): number {
  return Number.isNaN(units) ? Math.round(Number(text) / stepValue) : units;
}
