// A recording's event read twice: a websocket recorder that reconnects may write again events it
// wrote before (the last closed kline, the last aggTrade, trade, bookTicker or depthUpdate events). A
// dataset's rows rise by their id (aggTrade a, trade t, bookTicker u, a kline's open time t, a
// depthUpdate's u: depth-rows.ts), so an event whose
// id is not above the last one taken is looked up among the last RECENT events taken: the same event
// (its `data` identical) is dropped and counted, another event of that id refuses the file, naming
// both lines (which of the two is right cannot be told). An id not among them is left to the row
// parser, which refuses it as out of order; an id below all of a full window's is refused here,
// saying the window (a copy written after more than RECENT others is not looked for).

import { RowError } from './rows.ts';
import { count } from './count-words.ts';

/** How many of the last events taken a repeat is looked for among. */
const RECENT = 4096;

export class EventRepeats {
  /** Events dropped as repeats of one already read. */
  dropped = 0;
  private firstLine = 0;
  private firstOf = 0;
  private readonly ids = new Float64Array(RECENT);
  private readonly texts: string[] = new Array<string>(RECENT);
  private readonly lines = new Int32Array(RECENT);
  private taken = 0;
  private last = Number.NEGATIVE_INFINITY;
  private readonly eventName: string;
  private readonly idName: string;
  /** The event of a line's text (its `data`), as JSON text: what two lines are compared by. */
  private readonly eventText: (lineText: string) => string;

  constructor(eventName: string, idName: string, eventText: (lineText: string) => string) {
    this.eventName = eventName;
    this.idName = idName;
    this.eventText = eventText;
  }

  /**
   * Whether the line (its text, its event's id) repeats an event already taken, and is to be
   * dropped; throws RowError when it is another event of a taken id. A line not dropped is taken
   * by the caller's row parser, then `took` records it.
   */
  repeats(id: number, text: string, lineNo: number): boolean {
    if (!(id <= this.last)) return false;
    const n = Math.min(this.taken, RECENT);
    for (let i = 1; i <= n; i++) {
      const at = (this.taken - i) % RECENT;
      if (this.ids[at] < id) return false; // ids rise: it is not among them
      if (this.ids[at] !== id) continue;
      if (this.texts[at] !== text && this.eventText(this.texts[at]) !== this.eventText(text)) {
        throw new RowError(
          lineNo,
          `${this.eventName} ${this.idName} ${id} is also line ${this.lines[at]}'s, another ${this.eventName} event: ` +
            'two different events of one id (which of them is right cannot be told)',
        );
      }
      if (this.dropped++ === 0) {
        this.firstLine = lineNo;
        this.firstOf = this.lines[at];
      }
      return true;
    }
    // below every id of a full window: a copy written after more than RECENT others, or an event out of order
    if (n === RECENT) {
      throw new RowError(
        lineNo,
        `${this.eventName} ${this.idName} ${id} is below the last ${this.idName} taken, ${this.last}, and below ` +
          `the ${RECENT} events before it (from line ${this.lines[this.taken % RECENT]}), among which an event ` +
          'written again is looked for: events out of order, or written again after more than ' +
          `${RECENT} others (cut the part written again out of the file)`,
      );
    }
    return false;
  }

  took(id: number, text: string, lineNo: number): void {
    const at = this.taken++ % RECENT;
    this.ids[at] = id;
    this.texts[at] = text;
    this.lines[at] = lineNo;
    this.last = id;
  }

  /** The import's warning, or null when no event was dropped. */
  warning(): string | null {
    if (this.dropped === 0) return null;
    return (
      `${count(this.dropped, 'duplicate event')} dropped (${this.eventName} events the same as an earlier line's, ` +
      `as a recorder that reconnects writes again; the first, line ${this.firstLine}, repeats line ${this.firstOf})`
    );
  }
}
