// Account settings commands: leverage and margin mode per pair, position mode per account.
//
// Invariants
// - A setting is checked before anything changes (order-checks.ts); then memory and store
//   change together in one store unit.
// - Margin mode and position mode change only while the pair (the account) has no position
//   and no open order, a waiting conditional order counting as one; leverage only to a value whose notional cap holds each side's
//   position and opening orders (as an order's cap counts them) and,
//   when it is lower, whose initial margin the account can hold (cross positions and opening
//   orders on the pair) and each isolated position's margin covers: else nothing changes.
// - Positions take a new leverage at once (isolated margin stays as allocated); since a cross
//   position's margin follows its leverage, positions and balance are announced again.
// - So do the pair's open orders: an opening order freezes the margin of the new leverage for
//   the part of it that would open (what is left of it; in one-way mode less the net position it
//   reduces, ledger.ts eachOpeningOrder), and its fills open a position at that leverage (as
//   Binance's changeLeverage does); the order rows change in the same store unit, and each such
//   order's record is announced (an `order` push) before the positions and the balance.
// - A leverage or margin mode change announces the pair's setting (a `setting` push) first, open
//   or not.
// - A position mode switch announces the balance (the account summary, which names the mode).
import { Errors } from '../../src-shared/errors.ts';
import type { PositionMode } from '../../src-shared/enums.ts';
import type { MarginModeSetting, PositionModeSetting } from '../../src-shared/types/position-settings.ts';
import { openOrdersOf, positionsOf, reject, type AccountLive, type LiveOrder, type TradingCore } from './core.ts';
import { remarginOrders } from './ledger.ts';
import { orderRecord } from './views.ts';
import { blockers, checkLeverage, checkMarginModeChange, checkMarginModeValue } from './order-checks.ts';

export function applyPairSetting(
  core: TradingCore,
  a: AccountLive,
  symbol: string,
  leverage: number,
  marginMode: number,
): void {
  const pair = core.requirePair(symbol);
  const was = core.pairSetting(a, pair);
  const before = was.leverage;
  a.pairs.set(symbol, { leverage, marginMode });
  let repriced = false; // a position took the new leverage
  let remargined = false; // an open order's held margin moved
  const changed = new Set<LiveOrder>();
  const { repo } = core.deps;
  repo.tx(() => {
    repo.savePairSetting(a.id, symbol, leverage, marginMode);
    // positions take the new leverage (isolated margin stays as allocated)
    for (const p of positionsOf(a, symbol)) {
      if (p.leverage === leverage) continue;
      p.leverage = leverage;
      repo.savePosition(p);
      repriced = true;
    }
    // so do open orders: the part of an opening one that would open freezes the margin of the
    // new leverage (ledger.ts remarginOrders)
    for (const o of openOrdersOf(a, symbol)) {
      if (o.leverage === leverage) continue;
      o.leverage = leverage;
      changed.add(o);
    }
    if (changed.size > 0 && remarginOrders(a, pair, (o) => changed.add(o))) remargined = true;
    for (const o of changed) repo.saveOrder(o);
  });
  // the setting itself, first: a client following the account (the screen's order form in another
  // tab, a bot) learns of a change made elsewhere, also with nothing open that it would reprice
  if (before !== leverage || was.marginMode !== marginMode)
    core.writer.announce({
      accountId: a.id,
      kind: 'setting',
      data: { symbol, leverage, margin_mode: marginMode, time: core.now() },
    });
  // a cross position's margin, and so the account's available balance, follow the leverage; and
  // each open order that took it is announced as REST now lists it (its leverage, its margin).
  // Only what moved: the position list when a position took the leverage (not for a resting order
  // alone, until 2026-12-07 the list was pushed unchanged then), the balance when a position or an
  // order's held margin moved
  if ((repriced || changed.size > 0) && core.events.has('account')) {
    for (const o of changed) core.writer.announce({ accountId: a.id, kind: 'order', data: orderRecord(core, o) });
    if (repriced) core.writer.announcePositions(a);
    if (repriced || remargined) core.writer.announceBalance(a);
  }
  // a leverage change, whichever surface made it (the Binance facade's ACCOUNT_CONFIG_UPDATE)
  if (before !== leverage && core.events.has('setting')) {
    const ev = { accountId: a.id, symbol, leverage, marginMode };
    core.deps.repo.group.afterCommit(() => core.events.emit('setting', ev));
  }
}

export function setLeverage(
  core: TradingCore,
  a: AccountLive,
  symbol: string,
  leverage: number,
): { symbol: string; leverage: number; max_notional: string } {
  const pair = core.requirePair(symbol);
  const { maxNotional } = checkLeverage(core, a, pair, leverage);
  applyPairSetting(core, a, symbol, leverage, core.pairSetting(a, pair).marginMode);
  return { symbol, leverage, max_notional: String(maxNotional) };
}

export function setMarginMode(
  core: TradingCore,
  a: AccountLive,
  symbol: string,
  marginMode: number,
): MarginModeSetting {
  const pair = core.requirePair(symbol);
  checkMarginModeValue(marginMode);
  const cur = core.pairSetting(a, pair);
  if (cur.marginMode !== marginMode) {
    checkMarginModeChange(core, a, symbol, marginMode);
    applyPairSetting(core, a, symbol, cur.leverage, marginMode);
  }
  return { symbol, margin_mode: marginMode };
}

export function setPositionMode(core: TradingCore, a: AccountLive, mode: PositionMode): PositionModeSetting {
  if (a.mode !== mode) {
    checkPositionMode(core, a);
    a.mode = mode;
    const { repo } = core.deps;
    const now = core.now();
    repo.tx(() => repo.setPositionMode(a.id, mode, now));
    // the account summary carries the mode: the `user` stream tells a client following it (the
    // screen's order form, a bot) of a switch made elsewhere (another bot, the admin route)
    core.writer.announceBalance(a);
  }
  return { position_mode: mode };
}

/**
 * Refuses (3015) a change of the account's position mode while it holds a position or an open
 * order; applies nothing. A start checks every --account's change with it before it applies any.
 */
export function checkPositionMode(core: TradingCore, a: AccountLive): void {
  let positions = 0;
  for (const p of a.positions.values()) if (p.qty > 0) positions++;
  // a waiting conditional order is an open order here: it was checked against the mode it would fire in
  let waiting = 0;
  for (const c of core.conditionals.values()) if (c.accountId === a.id) waiting++;
  const orders = a.orders.size + waiting;
  if (positions > 0 || orders > 0) {
    reject(
      Errors.POSITION_MODE_CHANGE_REFUSED,
      `Position mode cannot change while the account has ${blockers(positions, orders, waiting)}`,
      orders > 0 ? 'open_orders' : 'position',
    );
  }
}
