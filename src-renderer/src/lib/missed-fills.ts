// The account's fills the screen learns of without the `user` stream: while it is down (the service
// restarting, the network gone) the positions and balance are read over REST every 5 s, and after a
// reconnect once more, but a fill comes only as a push, so one made meanwhile (a bot's, a resting
// order's) changed the position with no toast and nothing said to a screen reader (the toasts are
// its live region). This keeps the newest trade id the screen knows, from the pushes and from
// `GET /fapi/v1/myTrades`, so the fills a read finds beyond it are announced, each once: a push of
// one already read is not announced again, nor a read of one already pushed. The first read only
// learns where the account stands: fills before the screen logged in are not news.

/** The fields of a trade record this needs. */
interface Fill {
  id: string;
}

/** Trade ids are the venue's integers (decimal strings); one that is not counts as no id. */
const idOf = (t: Fill): bigint | null => (/^\d+$/.test(t.id) ? BigInt(t.id) : null);

export interface MissedFills<T extends Fill> {
  /** A fill pushed on the `user` stream: whether it is news (not read over REST already). */
  pushed(t: T): boolean;
  /**
   * Reads the newest fills (`read`: newest first, as myTrades answers) and hands those beyond the
   * newest known to `announce`, oldest first; answers how many. The first read announces none.
   */
  catchUp(read: () => Promise<readonly T[]>, announce: (t: T) => void): Promise<number>;
  /** Forgets the account (a log-out, another login): the next read only learns where it stands. */
  reset(): void;
}

/** How many announced ids are kept; older ones are below `floor` instead (a read takes the newest 100). */
const KEEP = 2000;

export function createMissedFills<T extends Fill>(): MissedFills<T> {
  // not news: every id up to `floor` (null: the first read has yet to say where the account stands),
  // and the ids in `known`, pushed or announced
  let floor: bigint | null = null;
  const known = new Set<bigint>();
  let generation = 0;
  const keep = (id: bigint): void => {
    known.add(id);
    if (known.size <= KEEP) return;
    const oldest = [...known].reduce((m, x) => (x < m ? x : m));
    known.delete(oldest);
    if (floor === null || oldest > floor) floor = oldest;
  };
  return {
    pushed(t) {
      const id = idOf(t);
      if (id === null) return true;
      if (known.has(id) || (floor !== null && id <= floor)) return false;
      keep(id);
      return true;
    },
    async catchUp(read, announce) {
      const asked = generation;
      const items = await read();
      if (asked !== generation) return 0; // the answer of an account since forgotten
      if (floor === null) {
        floor = items.reduce<bigint>((m, t) => {
          const id = idOf(t);
          return id !== null && id > m ? id : m;
        }, 0n);
        return 0;
      }
      let n = 0;
      for (const t of [...items].reverse()) {
        const id = idOf(t);
        if (id === null || id <= floor || known.has(id)) continue;
        keep(id);
        announce(t);
        n += 1;
      }
      return n;
    },
    reset() {
      floor = null;
      known.clear();
      generation += 1;
    },
  };
}
