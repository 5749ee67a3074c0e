// Whether a depth delta joins the local book where it stands: the spec's rule by update id
// ('id': U <= last + 1 <= u) or Binance's by previous id ('pu': the first delta after a
// snapshot brackets it, then each delta's `pu` is the last applied `u`). Pure: the book
// applies what this calls 'join' and resyncs on a 'gap'.
import type { Continuity, DepthUpdate } from './depth-types.ts';

/** 'join': apply it; 'stale': already in the book, drop it; 'gap': deltas were lost. */
export type Joint = 'join' | 'stale' | 'gap';

/**
 * Where `ev` stands against a book whose content is at update id `last`; `awaitingFirst` is
 * true while no delta has been applied since the snapshot.
 */
export function jointOf(rule: Continuity, last: number, awaitingFirst: boolean, ev: DepthUpdate): Joint {
  if (rule === 'id') {
    if (ev.u <= last) return 'stale';
    return ev.U > last + 1 ? 'gap' : 'join';
  }
  if (awaitingFirst) {
    if (ev.u < last) return 'stale';
    return ev.U > last ? 'gap' : 'join';
  }
  if (ev.u <= last) return 'stale';
  return ev.pu !== last ? 'gap' : 'join';
}
