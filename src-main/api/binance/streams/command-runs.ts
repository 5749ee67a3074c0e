// An account's user events of one commit split by the command that made them (AccountEvent.command):
// a batch's entries (POST / PUT batchOrders), or commands of one event-loop turn, reach the user
// stream together, and the stream says each command's changes in turn, as Binance does, with the
// figures as they stood right after that command (user-events.ts).
import { OrderStatus } from '../../../../src-shared/enums.ts';
import type { OrderRecord } from '../../../../src-shared/types.ts';
import type { AccountEvent } from '../../../trading/events.ts';

/** A pair's open orders as they stood after a command, from those open now. */
export type AsThen = (symbol: string, open: OrderRecord[]) => OrderRecord[];

const isOpen = (r: OrderRecord) => r.status === OrderStatus.NEW || r.status === OrderStatus.PARTIALLY_FILLED;

/**
 * The events of each command, in order, with the orders a later command of the commit changes
 * (`later`: open after this command, whatever they are now) and (but for the last command's) how
 * the open orders stood after it: an order a later command changes stands as this command's record of it, else
 * as `shown` says (read when the run is translated: what the stream last showed of it, the
 * commands before included), else (placed later, or not open) not at all.
 */
export function commandRuns(
  events: readonly AccountEvent[],
  shown: (orderId: number) => OrderRecord | undefined,
): Array<{ events: AccountEvent[]; asThen: AsThen | undefined; later: ReadonlySet<number> }> {
  const runs: AccountEvent[][] = [];
  for (const e of events) {
    const run = runs[runs.length - 1];
    if (run !== undefined && run[0]!.command === e.command) run.push(e);
    else runs.push([e]);
  }
  const orderIds = (run: AccountEvent[]) =>
    run.filter((e) => e.kind === 'order').map((e) => Number((e.data as OrderRecord).id));
  return runs.map((run, i) => {
    const later = new Set(runs.slice(i + 1).flatMap(orderIds));
    if (later.size === 0) return { events: run, asThen: undefined, later };
    const mine = new Map<number, OrderRecord>();
    for (const e of run) if (e.kind === 'order') mine.set(Number((e.data as OrderRecord).id), e.data as OrderRecord);
    const asThen: AsThen = (symbol, open) => {
      const out = open.filter((r) => !later.has(Number(r.id)));
      for (const id of later) {
        const r = mine.get(id) ?? shown(id);
        if (r !== undefined && r.symbol === symbol && isOpen(r)) out.push(r);
      }
      return out;
    };
    return { events: run, asThen, later };
  });
}
