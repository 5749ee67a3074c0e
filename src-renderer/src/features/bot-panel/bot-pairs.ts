// The bot form's pair picker: a bot order is placed only on a trading pair (a paused or delisted
// one is refused, 3001 "not trading"), so the picker lists the trading pairs; the pair the form
// has when it is not one (the screen's pair, paused or delisted) is kept, marked and off, with the
// reason Send is refused for. It listed every pair of the catalogue alike.
import { SymbolStatus } from '../../../../src-shared/enums.ts';
import type { SymbolEntry } from '../symbols/symbols-store.ts';

/** One option of the picker: `disabled` for the form's own pair when it takes no orders. */
interface BotPairOption {
  symbol: string;
  label: string;
  disabled: boolean;
}

const HALTED: Partial<Record<number, string>> = {
  [SymbolStatus.PAUSED]: 'paused',
  [SymbolStatus.DELISTED]: 'delisted',
};

/** Why a bot order cannot be placed on `symbol` (null: it can, or the catalogue does not know it yet). */
export function botPairRefusal(entries: readonly SymbolEntry[], symbol: string): string | null {
  const e = entries.find((x) => x.general.symbol === symbol);
  if (e === undefined || e.general.status === SymbolStatus.TRADING) return null;
  return `${symbol} is ${HALTED[e.general.status] ?? 'not trading'}: it takes no new orders (the venue answers 3001); pick a trading pair`;
}

/** The picker's options: the trading pairs, and the form's pair, marked and off, when it is not one. */
export function botPairOptions(entries: readonly SymbolEntry[], current: string): BotPairOption[] {
  return entries.flatMap((e): BotPairOption[] => {
    const symbol = e.general.symbol;
    if (e.general.status === SymbolStatus.TRADING) return [{ symbol, label: symbol, disabled: false }];
    if (symbol !== current) return [];
    return [{ symbol, label: `${symbol} (${HALTED[e.general.status] ?? 'not trading'})`, disabled: true }];
  });
}
