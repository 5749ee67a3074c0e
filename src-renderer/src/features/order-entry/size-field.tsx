// The order form's size: a quantity or a percentage (of each side's Max to open, of the
// position to close or reduce: order-model.ts sizePctBasis), the percentage slider (where a typed
// quantity stands as a share of the same basis, order-model.ts sizeShare) and marks,
// and in % mode the quantity each side would send, with a note when the pair's max_qty caps it.
import { useState, type Ref } from 'react';
import type { FuturesSymbol } from '../../../../src-shared/types.ts';
import type { OrderFormState } from './order-form-store.ts';
import { maxOnStep, NOT_A_NUMBER, sizeNotAboveZero, type OrderModel } from './order-model.ts';
import { capOf, parsePct, pctFieldText } from './size.ts';
import { notionalCheck, sizeCheck } from './input-checks.ts';
import { decimalsOf, fmt } from '../../lib/format.ts';
import { ARMED_ID, describedBy } from './price-field.tsx';

export interface SizeFieldProps {
  f: OrderFormState;
  model: OrderModel;
  futures: Pick<FuturesSymbol, 'min_qty' | 'max_qty' | 'qty_step' | 'min_notional'> | undefined;
  /** Whether the order opens and is not reduce-only: held to the minimum notional. */
  opens: boolean;
  base: string;
  /** The size input, focused and selected by B / S. */
  inputRef: Ref<HTMLInputElement>;
  /** A side is armed with B / S: the field is described by it. */
  armed: boolean;
}

export function SizeField({ f, model, futures: fut, base, inputRef, opens, armed }: SizeFieldProps) {
  const a = f.actions;
  // the percentage as typed, kept while it reads as f.pct (size.ts pctFieldText)
  const [pctTyped, setPctTyped] = useState<string | null>(null);
  const { qtyIn, buy, sell } = model;
  const offSize =
    (fut && f.sizeMode === 'qty' ? sizeCheck(qtyIn, fut) : null) ??
    (fut && opens ? notionalCheck(Math.min(buy.notional, sell.notional), fut.min_notional) : null);
  const pctMode = f.sizeMode === 'pct';
  const notAboveZero = pctMode ? null : sizeNotAboveZero(qtyIn);
  const invalid = !pctMode && (qtyIn.kind === 'invalid' || notAboveZero !== null);
  const pctOf = model.pctOf.label;
  const maxQty = fut?.max_qty ?? '';
  // a quantity as every figure on screen: the pair's decimals, thousands grouped ("7,372,302")
  const shown = (qty: string) => (qty === '' ? '0' : fut ? fmt(qty, decimalsOf(fut.qty_step)) : qty);
  return (
    <>
      <label className={`field${pctMode ? ' pct-active' : ''}`}>
        <span className="field-label">{pctMode ? 'Size %' : 'Size'}</span>
        {f.sizeMode === 'qty' ? (
          <input
            ref={inputRef}
            aria-label="Size"
            inputMode="decimal"
            value={f.qty}
            aria-invalid={invalid || offSize !== null}
            aria-describedby={describedBy(
              invalid && 'size-invalid',
              offSize !== null && 'size-check',
              armed && ARMED_ID,
            )}
            placeholder={`min ${fut?.min_qty ?? ''}`}
            onChange={(e) => a.set({ qty: e.target.value })}
          />
        ) : (
          <input
            ref={inputRef}
            aria-label="Size"
            aria-description={`${pctOf}: ${model.pctOf.detail}`}
            aria-invalid={offSize !== null}
            aria-describedby={describedBy(offSize !== null && 'size-check', armed && ARMED_ID)}
            inputMode="numeric"
            value={pctFieldText(pctTyped, f.pct)}
            placeholder={pctOf}
            onChange={(e) => {
              setPctTyped(e.target.value);
              a.set({ pct: parsePct(e.target.value) });
            }}
          />
        )}
        <span className="unit">
          <button
            className={`link${pctMode ? ' pct-on' : ''}`}
            type="button"
            aria-label={`Size unit: ${pctMode ? '%' : base}`}
            title={
              pctMode
                ? `Size is a percentage (${pctOf}): click for a quantity in ${base}`
                : 'Switch between a quantity and a percentage'
            }
            onClick={() => a.set({ sizeMode: f.sizeMode === 'qty' ? 'pct' : 'qty' })}
          >
            {f.sizeMode === 'qty' ? base : '%'} ⇄
          </button>
        </span>
      </label>
      {invalid && (
        <p className="warn-text" id="size-invalid" data-testid="size-invalid">
          {notAboveZero ?? `Not a size: ${NOT_A_NUMBER}.`}
        </p>
      )}
      {offSize !== null && (
        <p className="warn-text" id="size-check" data-testid="size-check">
          {offSize}
        </p>
      )}

      <div className="pct-row">
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          aria-label="Size percentage"
          value={model.sizeShare}
          onChange={(e) => a.set({ sizeMode: 'pct', pct: Number(e.target.value) })}
        />
        <div className="pct-marks">
          {[25, 50, 75, 100].map((p) => (
            <button
              key={p}
              type="button"
              onClick={() => a.set({ sizeMode: 'pct', pct: p })}
              className={f.sizeMode === 'pct' && f.pct === p ? 'active' : ''}
            >
              {p}%
            </button>
          ))}
        </div>
      </div>
      {pctMode && (
        <div className="pct-qty" data-testid="pct-qty">
          <span className="pct-badge" title={model.pctOf.detail}>
            {f.pct}% {pctOf.slice(2)}
          </span>{' '}
          ≈ <b>{shown(buy.qty)}</b> {base} {buy.label.toLowerCase()} · <b>{shown(sell.qty)}</b> {base}{' '}
          {sell.label.toLowerCase()}
          {fut &&
            capOf(maxQty) < Infinity &&
            (buy.qty === maxOnStep(maxQty, fut.qty_step) || sell.qty === maxOnStep(maxQty, fut.qty_step)) && (
              <span className="warn-text">
                {' '}
                (capped at the pair's maximum of {shown(maxQty)} {base} per order)
              </span>
            )}
        </div>
      )}
    </>
  );
}
