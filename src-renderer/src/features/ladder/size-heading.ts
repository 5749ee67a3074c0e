// The order book's and the trades' Size heading: "Size (BTC)", on one line for every pair. A base
// asset longer than four letters ("1000PEPE", "LUNA2") wraps the heading to a second line at the
// trades' width, which pushes the ladder's rows half out of their sides (a top ask under the heading,
// a bottom bid under the B/S bar): the heading then says "Size" and its title (and a screen
// reader) the whole "Size (1000PEPE)"; the order form names the unit beside the size.

/** The longest base asset named in the heading itself. */
const SHOWN_BASE = 4;

/** What the Size heading shows and what its title and accessible name say. */
export function sizeHeading(base: string): { text: string; full: string } {
  const full = base === '' ? 'Size' : `Size (${base})`;
  return { text: base.length > SHOWN_BASE ? 'Size' : full, full };
}
