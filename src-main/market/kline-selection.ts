// What a klines read returns, before it is written out: its closed candles from a ring (indices
// [from, to)) or from the store (rows), and the current candle; and those closed candles as
// response bytes, newest first. A ring keeps the bytes of its recent reads until its next close.
import type { Candle } from './candles.ts';
import type { Ring, SymbolCandles } from './candle-rings.ts';

/** Where a read's closed candles come from: ring indices [from, to) or rows from SQLite. */
export interface Selection {
  st: SymbolCandles;
  ring: Ring;
  current: Candle | undefined;
  from: number;
  to: number;
  rows: Candle[] | null;
}

/** JSON of a selection's closed candles, newest first, comma-separated, no brackets. */
export function closedBytes(sel: Selection): Buffer {
  const { st, ring, rows } = sel;
  if (rows) {
    let s = '';
    for (let i = rows.length - 1; i >= 0; i--)
      s += (i === rows.length - 1 ? '' : ',') + JSON.stringify(st.format(rows[i], true));
    return Buffer.from(s);
  }
  const key = sel.from * (ring.cap + 1) + sel.to;
  const hit = ring.bytes.get(key);
  if (hit) return hit;
  const { candles, json } = ring;
  let s = '';
  for (let i = sel.to - 1; i >= sel.from; i--) {
    const k = ring.slot(i);
    let j = json[k];
    if (j === undefined) j = json[k] = JSON.stringify(st.format(candles[k], true));
    s += i === sel.to - 1 ? j : ',' + j;
  }
  const bytes = Buffer.from(s);
  if (ring.bytes.size >= 4) ring.bytes.clear();
  ring.bytes.set(key, bytes);
  return bytes;
}
