// The house desk (Exchange.houseDesk): the replay's house commands as numbers do exactly what the
// 'houseOrder', 'housePrint', 'houseTrim' and 'houseGrow' commands do, through execute() (takeFront
// what a taker's 'houseOrder' does, whichever order it names): the
// same tape, level changes with their update ids, a user's fills, position and wallet, answers,
// and the same refusals (code and message) having changed nothing. Run with and without a level
// listener: without one, the house's trades among themselves reach the desk as numbers.
import { openLimit, upsertAccount } from '../helpers/exchange-commands.ts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src-shared/errors.ts';
import { HOUSE_ACCOUNT } from '../../src-main/trading/exchange.ts';
import { paperVenues } from './venues.ts';

const UNIT = 100_000_000n;
const venue = paperVenues(() => 1_700_000_000_000);
const BOOK = HOUSE_ACCOUNT + 11;
const TAKER = HOUSE_ACCOUNT + 12;

type Op =
  | ['place', 1 | 2, number, number, boolean]
  | ['take', 1 | 2, number, number]
  | ['front', 1 | 2, number, number, number]
  | ['print', 1 | 2, number, number, number, boolean]
  | ['trim', number, number]
  | ['grow', number, number]
  | ['user', 1 | 2, number, string];

/** One scenario sent as commands or through the desk; everything observed, as lines. */
function scenario(via: 'commands' | 'desk', levels: boolean): string[] {
  const ex = venue().exchange;
  const pair = ex.pair('BTCUSDT')!;
  const lines: string[] = [];
  ex.events.on('trade', (e) => lines.push(`T ${e.tradeId} ${e.priceTicks} ${e.qtyLots} ${e.takerSide} ${e.time}`));
  if (levels) ex.events.on('level', (e) => lines.push(`L ${e.updateId} ${e.side} ${e.priceTicks} ${e.totalLots}`));
  const user = upsertAccount(ex, { apiKey: 'k', apiSecret: 's', kind: 'user', balance: 1_000_000n * UNIT }, 0).id;
  const desk = via === 'desk' ? ex.houseDesk('BTCUSDT', { book: BOOK, taker: TAKER }) : null;
  if (desk === null) ex.reserveHouseAccounts([BOOK, TAKER]);
  const P = pair.math.ticksRound(pair.markPrice);
  /** Order ids of the house's placements, in order (trims and growths name them by index). */
  const ids: number[] = [];
  const ops: Op[] = [
    ['place', 2, P, 10, false],
    ['place', 2, P, 5, false],
    ['place', 2, P + 1, 8, false],
    ['take', 1, P, 12], // the house's trades alone
    ['user', 2, P + 1, '0.004'], // a user's ask behind the house's
    ['place', 2, P + 1, 3, false],
    ['take', 1, P + 1, 20], // house, user, house
    ['place', 1, P - 1, 7, false],
    ['place', 1, P - 1, 2, false],
    ['place', 1, P - 2, 7, false],
    ['trim', 4, 4], // in place, priority kept
    ['grow', 5, 9], // the last of its level
    ['grow', 4, 9], // not the last of its level: refused
    ['trim', 6, 0], // cancelled
    ['trim', 6, 0], // gone: refused
    ['print', 2, P - 1, 5, 6, false], // refused: the resting side shows the price
    ['print', 1, P + 2, 5, 6, false], // a print on a level placed for it
    ['print', 2, P + 2, 3, 4, true], // a side change: the own level at the price taken away
    ['place', 1, P + 2, 4, true],
    ['place', 2, P + 5, 6, false],
    ['place', 2, P + 5, 6, false],
    ['place', 2, P + 5, 6, false],
    ['front', 1, P + 5, 4, 8], // the head covers it: booked without the taker's order
    ['front', 1, P + 5, 2, 9], // not the head: a taker as any (takes the rest of the head)
    ['front', 1, P + 5, 9, 9], // the head does not cover it: a taker as any
    ['front', 1, P + 5, 3, 10], // takes the head whole: the level's last order goes
    ['user', 1, P + 3, '0.002'], // a user's bid, then the house's behind it
    ['place', 1, P + 3, 5, false],
    ['front', 2, P + 3, 1, 11], // the user's order is the head: a taker as any
    ['take', 2, P - 1, 100],
    ['place', 1, P * 2, 1, false], // outside the band: refused
    ['take', 1, P, 0], // no size: refused
  ];
  // the reference for a take and a front print: the house taker's IOC through execute()
  const takerIoc = (side: 1 | 2, price: number, lots: number): string => {
    const r = ex.execute({
      kind: 'houseOrder',
      symbol: 'BTCUSDT',
      account: TAKER,
      side,
      priceTicks: price,
      lots,
      tif: 2,
    });
    return `= ${r.filledLots} ${r.orderId}`;
  };
  for (const op of ops) {
    try {
      switch (op[0]) {
        case 'place': {
          const [, side, price, lots, expireOwn] = op;
          if (desk) {
            const got = desk.place(side, price, lots, expireOwn);
            ids.push(desk.orderId);
            lines.push(`= ${desk.orderId} ${got}`);
          } else {
            const r = ex.execute({
              kind: 'houseOrder',
              symbol: 'BTCUSDT',
              account: BOOK,
              side,
              priceTicks: price,
              lots,
              tif: 1,
              expireOwn,
            });
            ids.push(r.orderId);
            lines.push(`= ${r.orderId} ${r.filledLots}`);
          }
          break;
        }
        case 'take': {
          const [, side, price, lots] = op;
          if (desk) lines.push(`= ${desk.take(side, price, lots)} ${desk.orderId}`);
          else lines.push(takerIoc(side, price, lots));
          break;
        }
        case 'front': {
          const [, side, price, lots, index] = op;
          if (desk) lines.push(`= ${desk.takeFront(side, price, lots, ids[index])} ${desk.orderId}`);
          else lines.push(takerIoc(side, price, lots));
          break;
        }
        case 'print': {
          const [, takerSide, price, lots, rest, expireOwn] = op;
          const r = desk
            ? desk.print(takerSide, price, lots, rest, expireOwn)
            : ex.execute({
                kind: 'housePrint',
                symbol: 'BTCUSDT',
                maker: BOOK,
                taker: TAKER,
                takerSide,
                priceTicks: price,
                lots,
                rest,
                expireOwn,
              }).filledLots;
          lines.push(`= ${r}`);
          break;
        }
        case 'trim': {
          const orderId = ids[op[1]];
          lines.push(
            `= ${desk ? desk.trim(orderId, op[2]) : ex.execute({ kind: 'houseTrim', symbol: 'BTCUSDT', orderId, lots: op[2] })}`,
          );
          break;
        }
        case 'grow': {
          const orderId = ids[op[1]];
          lines.push(
            `= ${desk ? desk.grow(orderId, op[2]) : ex.execute({ kind: 'houseGrow', symbol: 'BTCUSDT', orderId, lots: op[2] })}`,
          );
          break;
        }
        case 'user': {
          const r = openLimit(ex, user, { side: op[1], price: pair.math.formatPrice(op[2]), qty: op[3] });
          lines.push(`U ${r.order_id} ${r.status}`);
          break;
        }
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      lines.push(`! ${err.code} ${err.message}`);
    }
  }
  const d = pair.book.depth();
  lines.push(`book ${d.updateId} ${JSON.stringify(d.bids)} ${JSON.stringify(d.asks)} ${pair.lastPriceTicks}`);
  lines.push(`user ${JSON.stringify(ex.summary(user))} ${JSON.stringify(ex.positions(user))}`);
  return lines;
}

describe('house desk', () => {
  for (const levels of [false, true]) {
    it(`does what the house commands do (level listener ${levels ? 'on' : 'off'})`, () => {
      const commands = scenario('commands', levels);
      const desk = scenario('desk', levels);
      expect(desk).toEqual(commands);
      // the scenario has what it is for: house trades, a user's fill, refusals of each kind
      expect(commands.filter((l) => l.startsWith('T ')).length).toBeGreaterThan(6);
      expect(commands.at(-1)).toMatch(/"position_side":2/); // the user's ask was met
      expect(commands.filter((l) => l.startsWith('! ')).length).toBe(5);
      if (levels) expect(commands.some((l) => l.startsWith('L '))).toBe(true);
    });
  }
});
