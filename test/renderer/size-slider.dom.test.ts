// The order form's size slider with a quantity typed: it stands at that quantity's share of what
// the percentage is taken of (the position on Close, each side's Max on Open), as the screen
// renders it. It stayed at 0 whatever was typed (size-field.tsx read f.pct only in % mode).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PositionRecord } from '../../src-shared/types.ts';
import { orderModel, type OrderModelInput } from '../../src-renderer/src/features/order-entry/order-model.ts';
import { SizeField, type SizeFieldProps } from '../../src-renderer/src/features/order-entry/size-field.tsx';
import { BTC_FUTURES } from './futures-row.ts';

const long = (quantity: number): PositionRecord =>
  ({
    symbol: 'BTCUSDT',
    position_side: 1,
    margin_mode: 2,
    quantity,
    entry_price: 90_000,
    mark_price: 95_000,
    maintenance_margin_rate: 0.004,
    margin: 500,
  }) as PositionRecord;

function input(form: Partial<OrderModelInput['form']>, positions: PositionRecord[]): OrderModelInput {
  return {
    symbol: 'BTCUSDT',
    form: { action: 'open', type: 2, price: '', qty: '', sizeMode: 'qty', pct: 0, tif: 1, reduceOnly: false, ...form },
    futures: BTC_FUTURES,
    summary: { available_balance: '10000', wallet_balance: '10000', position_mode: 'hedge' },
    setting: { leverage: 125, marginMode: 2, maxLeverage: 125 },
    positions,
    openOrders: [],
    markOf: () => 95_000,
    bestBid: 94_990,
    bestAsk: 95_000,
    last: 94_995,
    maxNotional: 50_000,
    loggedIn: true,
    positionsLoaded: true,
  };
}

/** The slider's value as rendered, for a form and its positions. */
function slider(form: Partial<OrderModelInput['form']>, positions: PositionRecord[] = []): string {
  const i = input(form, positions);
  const f = { ...i.form, actions: { set: () => undefined } } as unknown as SizeFieldProps['f'];
  const model = orderModel(i);
  const markup = renderToStaticMarkup(
    createElement(SizeField, {
      f,
      model,
      futures: undefined,
      opens: false,
      base: 'BTC',
      inputRef: null,
      armed: false,
    }),
  );
  const tag = /<input[^>]*aria-label="Size percentage"[^>]*>/.exec(markup)?.[0] ?? '';
  return /\svalue="([^"]*)"/.exec(tag)?.[1] ?? '';
}

describe('the size slider follows a typed size', () => {
  it('Close, hedge mode: 0.5 typed against a long of 2 puts it at 25 (it stayed at 0)', () => {
    expect(slider({ action: 'close', qty: '0.5' }, [long(2)])).toBe('25');
  });

  it('Close: a size over the position stands at 100; nothing typed, or nothing to close, at 0', () => {
    expect(slider({ action: 'close', qty: '3' }, [long(2)])).toBe('100');
    expect(slider({ action: 'close', qty: '' }, [long(2)])).toBe('0');
    expect(slider({ action: 'close', qty: '0.5' }, [])).toBe('0');
  });

  it("Open: a share of the side's Max (0.525 BTC at the notional cap): 0.2625 is 50", () => {
    expect(slider({ qty: '0.2625' })).toBe('50');
  });

  it('in % mode it shows the percentage', () => {
    expect(slider({ action: 'close', sizeMode: 'pct', pct: 40 }, [long(2)])).toBe('40');
  });
});
