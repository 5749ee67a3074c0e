// The simulator speed field, checked here before anything is sent: a number from 0.1 to
// 10 000 times real time (the venue's MIN_SPEED / MAX_SPEED), thousands separators accepted
// as in every other field ("1,000" is 1000, decimal-input.ts), an optional trailing "x".
// Anything else says what is expected instead of the API's JSON-schema wording.
import { parseDecimalInput } from '../../lib/decimal-input.ts';

const MIN_SIM_SPEED = 0.1;
const MAX_SIM_SPEED = 10_000;

export type SpeedInput = { ok: true; value: number } | { ok: false; reason: string };

const RANGE = `Speed is a number from ${MIN_SIM_SPEED} to 10,000 (times real time), e.g. 60`;

export function parseSimSpeed(text: string): SpeedInput {
  const t = text.trim().replace(/\s*x$/i, '');
  const d = parseDecimalInput(t);
  if (d.kind === 'empty') return { ok: false, reason: 'Enter a speed, e.g. 60' };
  if (d.kind === 'invalid') return { ok: false, reason: `"${text.trim()}" is not a number. ${RANGE}.` };
  if (d.kind === 'negative') return { ok: false, reason: `${RANGE}: ${d.text} is out of range.` };
  if (d.n < MIN_SIM_SPEED || d.n > MAX_SIM_SPEED) return { ok: false, reason: `${RANGE}: ${d.value} is out of range.` };
  return { ok: true, value: d.n };
}
