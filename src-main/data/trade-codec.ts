// Compact blocks of trades: up to BLOCK_SIZE trades of one dataset, ascending by id, as
// columns of varints (about 8-14 bytes a trade on real data, against ~60 as SQLite rows).
//
// Layout (all integers unsigned LEB128 varints; "z" = zigzag for signed deltas):
//   version(=1) variant(0 trades, 1 aggTrades) count priceDp qtyDp auxDp
//   firstId firstTimeUs
//   id deltas - 1          (ids strictly ascend)
//   price: first, then z(delta)
//   qty
//   time deltas (µs)       (times never go back)
//   aux: trades: quote qty; aggTrades: z(first_trade_id - previous last_trade_id - 1)
//   last - first           (aggTrades only)
//   flags, one byte each   (bit 0 buyer maker, bit 1 best match, bit 2 best-match column present)
// Every mantissa of a block is at the block's decimals (the most any of its rows has), so a block
// is self-contained; readers rescale to the dataset's decimals.
// Limits: values and deltas are safe integers (checked when the block is built).

import { rescale } from './decimal-field.ts';
import type { TradeRow } from './rows.ts';

const BLOCK_SIZE = 8192;

/** Decoded block: parallel columns, `count` long. */
export interface TradeColumns {
  count: number;
  agg: boolean;
  priceDp: number;
  qtyDp: number;
  auxDp: number;
  id: Float64Array;
  price: Float64Array;
  qty: Float64Array;
  aux: Float64Array;
  last: Float64Array;
  timeUs: Float64Array;
  flags: Uint8Array;
}

export function newColumns(capacity = BLOCK_SIZE): TradeColumns {
  return {
    count: 0,
    agg: false,
    priceDp: 0,
    qtyDp: 0,
    auxDp: 0,
    id: new Float64Array(capacity),
    price: new Float64Array(capacity),
    qty: new Float64Array(capacity),
    aux: new Float64Array(capacity),
    last: new Float64Array(capacity),
    timeUs: new Float64Array(capacity),
    flags: new Uint8Array(capacity),
  };
}

/** Collects rows of one file into blocks; `flush` hands each full block's bytes on. */
export class BlockBuilder {
  private readonly c: TradeColumns;
  private readonly pDp = new Uint8Array(BLOCK_SIZE);
  private readonly qDp = new Uint8Array(BLOCK_SIZE);
  private readonly aDp = new Uint8Array(BLOCK_SIZE);
  private readonly out = new Writer();

  constructor(agg: boolean) {
    this.c = newColumns();
    this.c.agg = agg;
  }

  get count(): number {
    return this.c.count;
  }

  get full(): boolean {
    return this.c.count === BLOCK_SIZE;
  }

  add(r: TradeRow): void {
    const c = this.c;
    const i = c.count++;
    c.id[i] = r.id;
    c.price[i] = r.price;
    this.pDp[i] = r.priceDp;
    c.qty[i] = r.qty;
    this.qDp[i] = r.qtyDp;
    c.aux[i] = r.aux;
    this.aDp[i] = r.auxDp;
    c.last[i] = r.last;
    c.timeUs[i] = r.timeUs;
    c.flags[i] = r.flags;
  }

  /** First and last id and time of the pending rows (for the block's index row). */
  range(): { firstId: number; lastId: number; firstTimeUs: number; lastTimeUs: number; count: number } {
    const c = this.c;
    return {
      firstId: c.id[0],
      lastId: c.id[c.count - 1],
      firstTimeUs: c.timeUs[0],
      lastTimeUs: c.timeUs[c.count - 1],
      count: c.count,
    };
  }

  /** Encodes the pending rows (at least one) and starts an empty block. Throws RangeError on overflow. */
  encode(): Uint8Array {
    const c = this.c;
    const n = c.count;
    let pd = 0;
    let qd = 0;
    let ad = 0;
    for (let i = 0; i < n; i++) {
      if (this.pDp[i] > pd) pd = this.pDp[i];
      if (this.qDp[i] > qd) qd = this.qDp[i];
      if (this.aDp[i] > ad) ad = this.aDp[i];
    }
    for (let i = 0; i < n; i++) {
      c.price[i] = rescale(c.price[i], this.pDp[i], pd);
      c.qty[i] = rescale(c.qty[i], this.qDp[i], qd);
      c.aux[i] = rescale(c.aux[i], this.aDp[i], ad);
      if (Number.isNaN(c.price[i] + c.qty[i] + c.aux[i])) {
        throw new RangeError(`trade ${c.id[i]}: price or quantity exceeds 2^53 at ${Math.max(pd, qd, ad)} decimals`);
      }
    }
    c.priceDp = pd;
    c.qtyDp = qd;
    c.auxDp = ad;
    const w = this.out;
    w.reset(n * 24 + 64);
    w.u(1);
    w.u(c.agg ? 1 : 0);
    w.u(n);
    w.u(pd);
    w.u(qd);
    w.u(ad);
    w.u(c.id[0]);
    w.u(c.timeUs[0]);
    for (let i = 1; i < n; i++) w.u(c.id[i] - c.id[i - 1] - 1);
    w.u(c.price[0]);
    for (let i = 1; i < n; i++) w.z(c.price[i] - c.price[i - 1]);
    for (let i = 0; i < n; i++) w.u(c.qty[i]);
    for (let i = 1; i < n; i++) w.u(c.timeUs[i] - c.timeUs[i - 1]);
    if (c.agg) {
      w.u(c.aux[0]);
      for (let i = 1; i < n; i++) w.z(c.aux[i] - c.last[i - 1] - 1);
      for (let i = 0; i < n; i++) w.u(c.last[i] - c.aux[i]);
    } else {
      for (let i = 0; i < n; i++) w.u(c.aux[i]);
    }
    for (let i = 0; i < n; i++) w.byte(c.flags[i]);
    c.count = 0;
    return w.bytes();
  }
}

class Writer {
  private buf = new Uint8Array(1 << 16);
  private pos = 0;

  reset(capacity: number): void {
    if (this.buf.length < capacity) this.buf = new Uint8Array(capacity);
    this.pos = 0;
  }

  private room(): void {
    if (this.pos + 10 > this.buf.length) {
      const b = new Uint8Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
  }

  u(v: number): void {
    if (!(v >= 0 && v <= Number.MAX_SAFE_INTEGER)) throw new RangeError(`trade block value out of range: ${v}`);
    this.room();
    const b = this.buf;
    let p = this.pos;
    while (v >= 128) {
      b[p++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    b[p++] = v;
    this.pos = p;
  }

  z(v: number): void {
    this.u(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  byte(v: number): void {
    this.room();
    this.buf[this.pos++] = v;
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** Decodes one block into `into` (grown when too small). Throws on a malformed block. */
export function decodeBlock(bytes: Uint8Array, into: TradeColumns = newColumns()): TradeColumns {
  let p = 0;
  const u = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (p >= bytes.length) throw new RangeError('truncated trade block');
      const b = bytes[p++];
      v += (b & 127) * mul;
      if (b < 128) return v;
      mul *= 128;
    }
  };
  const z = (): number => {
    const v = u();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  };
  if (u() !== 1) throw new RangeError('unknown trade block version');
  const agg = u() === 1;
  const n = u();
  let c = into;
  if (c.id.length < n) c = newColumns(n);
  c.count = n;
  c.agg = agg;
  c.priceDp = u();
  c.qtyDp = u();
  c.auxDp = u();
  c.id[0] = u();
  c.timeUs[0] = u();
  for (let i = 1; i < n; i++) c.id[i] = c.id[i - 1] + u() + 1;
  c.price[0] = u();
  for (let i = 1; i < n; i++) c.price[i] = c.price[i - 1] + z();
  for (let i = 0; i < n; i++) c.qty[i] = u();
  for (let i = 1; i < n; i++) c.timeUs[i] = c.timeUs[i - 1] + u();
  if (agg) {
    // Two streams that depend on each other row by row: read both raw, then resolve.
    c.aux[0] = u();
    for (let i = 1; i < n; i++) c.aux[i] = z();
    for (let i = 0; i < n; i++) c.last[i] = u();
    for (let i = 0; i < n; i++) {
      if (i > 0) c.aux[i] += c.last[i - 1] + 1;
      c.last[i] += c.aux[i];
    }
  } else {
    for (let i = 0; i < n; i++) {
      c.aux[i] = u();
      c.last[i] = 0;
    }
  }
  if (p + n !== bytes.length) throw new RangeError('malformed trade block');
  c.flags.set(bytes.subarray(p, p + n));
  return c;
}
