// What a screen reader hears in the order form: the side armed with B / S (aria-pressed on its
// button, and the price and size fields described by "Open long armed"), and the warnings under
// the price and size linked to their field (aria-describedby), rendered as the screen renders them.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SideButton } from '../../src-renderer/src/features/order-entry/order-side.tsx';
import { PriceField } from '../../src-renderer/src/features/order-entry/price-field.tsx';
import { SizeField, type SizeFieldProps } from '../../src-renderer/src/features/order-entry/size-field.tsx';
import { StopTrigger } from '../../src-renderer/src/features/order-entry/stop-fields.tsx';
import { parseDecimalInput } from '../../src-renderer/src/lib/decimal-input.ts';
import { Side } from '../../src-shared/enums.ts';

const html = (el: Parameters<typeof renderToStaticMarkup>[0]): HTMLish => new HTMLish(renderToStaticMarkup(el));

/** Enough of the markup to read an element's attributes and an id's text. */
class HTMLish {
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  /** The opening tag of the element with aria-label `label` (or the first button). */
  tag(label: string | null): string {
    const re = label === null ? /<button[^>]*>/ : new RegExp(`<[a-z]+[^>]*aria-label="${label}"[^>]*>`);
    const m = re.exec(this.s);
    if (!m) throw new Error(`no ${label} in ${this.s}`);
    return m[0];
  }
  attr(label: string | null, name: string): string | null {
    return new RegExp(`\\s${name}="([^"]*)"`).exec(this.tag(label))?.[1] ?? null;
  }
  textOf(id: string): string {
    const m = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(this.s);
    if (!m) throw new Error(`no #${id} in ${this.s}`);
    return m[1];
  }
}

const noop = (): void => undefined;
const side = (s: Side, label: string) => ({ side: s, label, qty: '', notional: NaN }) as never;

describe('the armed side', () => {
  it('is aria-pressed on its button, not pressed on the other', () => {
    const on = html(
      createElement(SideButton, {
        m: side(Side.BUY, 'Open long'),
        armed: true,
        disabled: false,
        sending: false,
        pct: null,
        onClick: noop,
      }),
    );
    expect(on.attr(null, 'aria-pressed')).toBe('true');
    const off = html(
      createElement(SideButton, {
        m: side(Side.SELL, 'Open short'),
        armed: false,
        disabled: false,
        sending: false,
        pct: null,
        onClick: noop,
      }),
    );
    expect(off.attr(null, 'aria-pressed')).toBe('false');
  });

  it('describes the price and the size fields while armed, and only then', () => {
    const price = (armed: boolean) =>
      html(
        createElement(PriceField, {
          price: '',
          priceIn: parseDecimalInput(''),
          priced: true,
          stop: false,
          offTick: null,
          last: 100,
          pd: 1,
          quote: 'USDT',
          armed,
          onPrice: noop,
        }),
      );
    expect(price(true).attr('Price', 'aria-describedby')).toBe('oe-armed');
    expect(price(false).attr('Price', 'aria-describedby')).toBeNull();
    expect(size({ armed: true }).attr('Size', 'aria-describedby')).toBe('oe-armed');
    expect(size({ armed: false }).attr('Size', 'aria-describedby')).toBeNull();
  });
});

const fut = { min_qty: '0.001', max_qty: '100', qty_step: '0.001', min_notional: '5' };
function size(o: { armed: boolean; qty?: string }): HTMLish {
  const qty = o.qty ?? '';
  const f = { actions: { set: noop }, sizeMode: 'qty', qty, pct: 0 } as unknown as SizeFieldProps['f'];
  const model = {
    qtyIn: parseDecimalInput(qty),
    buy: { ...(side(Side.BUY, 'Open long') as object), notional: 1000, qty },
    sell: { ...(side(Side.SELL, 'Open short') as object), notional: 1000, qty },
    pctOf: { label: '% of Max', detail: '' },
  } as unknown as SizeFieldProps['model'];
  return html(
    createElement(SizeField, { f, model, futures: fut, opens: true, base: 'BTC', inputRef: null, armed: o.armed }),
  );
}

describe('a warning under a field', () => {
  it('is linked to the price field it is about', () => {
    const off = html(
      createElement(PriceField, {
        price: '100.05',
        priceIn: parseDecimalInput('100.05'),
        priced: true,
        stop: false,
        offTick: 'Not on the tick 0.1',
        last: 100,
        pd: 1,
        quote: 'USDT',
        armed: true,
        onPrice: noop,
      }),
    );
    expect(off.attr('Price', 'aria-invalid')).toBe('true');
    expect(off.attr('Price', 'aria-describedby')).toBe('price-check oe-armed');
    expect(off.textOf('price-check')).toBe('Not on the tick 0.1');
    const bad = html(
      createElement(PriceField, {
        price: 'abc',
        priceIn: parseDecimalInput('abc'),
        priced: true,
        stop: false,
        offTick: null,
        last: 100,
        pd: 1,
        quote: 'USDT',
        armed: false,
        onPrice: noop,
      }),
    );
    expect(bad.attr('Price', 'aria-describedby')).toBe('price-invalid');
    expect(bad.textOf('price-invalid')).toMatch(/^Not a price/);
  });

  it('is linked to the size field it is about', () => {
    const off = size({ armed: false, qty: '0.0005' });
    expect(off.attr('Size', 'aria-invalid')).toBe('true');
    expect(off.attr('Size', 'aria-describedby')).toBe('size-check');
    expect(off.textOf('size-check')).not.toBe('');
    const bad = size({ armed: true, qty: '-1' });
    expect(bad.attr('Size', 'aria-describedby')).toBe('size-invalid oe-armed');
    expect(bad.textOf('size-invalid')).toMatch(/above 0/);
    // a size of 0 is said as it is typed, as a bad price is, not only on send
    const zero = size({ armed: false, qty: '0' });
    expect(zero.attr('Size', 'aria-invalid')).toBe('true');
    expect(zero.attr('Size', 'aria-describedby')).toBe('size-invalid');
    expect(zero.textOf('size-invalid')).toBe('Size must be above 0.');
  });
});

describe('a stop trigger', () => {
  it('is described by its warning and by the side armed, as the price is', () => {
    const f = {
      actions: { set: noop },
      trigger: '100.05',
      working: 1,
      focus: { side: Side.SELL, seq: 1 },
    } as unknown as Parameters<typeof StopTrigger>[0]['f'];
    const h = html(
      createElement(StopTrigger, {
        f,
        triggerIn: parseDecimalInput('100.05'),
        watched: 100,
        tick: '0.1',
        pd: 1,
        quote: 'USDT',
      }),
    );
    expect(h.attr('Trigger price', 'aria-invalid')).toBe('true');
    expect(h.attr('Trigger price', 'aria-describedby')).toBe('trigger-check oe-armed');
    expect(h.textOf('trigger-check')).not.toBe('');
  });
});
