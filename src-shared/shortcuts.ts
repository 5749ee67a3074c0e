// The keyboard shortcuts of the trading screen, one table for the in-app help overlay and the
// desktop app's Help menu (the main process shows it too, so it lives in src-shared).
export const SHORTCUTS: ReadonlyArray<readonly [keys: string, action: string]> = [
  ['B', 'Buy side: focus its size field (hedge mode: open long, or close short in Close)'],
  ['S', 'Sell side: focus its size field (hedge mode: open short, or close long in Close)'],
  ['Enter', 'In the order form after B / S: send that side once (then B / S again for another order)'],
  ['Esc', 'Clear the order form / close the open panel'],
  ['L / M', 'Limit / market order'],
  ['O / C', 'Open / close tab of the order form'],
  ['/', 'Search pairs'],
  ['1 … 9', 'Chart interval: 1m 5m 15m 1h 4h 1d 1w 1M 1s'],
  ['[ / ]', 'Order book grouping: finer / coarser'],
  ['↑ / ↓ / Enter', 'Order book (one Tab stop): move along the prices / put the price in the order form'],
  ['P', 'Positions tab'],
  ['Shift+O', 'Open orders tab'],
  ['Shift+B', 'Bot orders panel'],
  [',', 'Settings'],
  ['Shift+R', 'Replay: the Replay dialog (live market) / the session report (in a replay)'],
  ['Space', 'Replay: play / pause'],
  ['- / +', 'Replay: slower / faster (speed presets 1x … 1000x)'],
  ['N / . / Shift+.', 'Replay: step 1 second / 1 minute / 1 hour of history'],
  ['G', 'Replay: seek to a time (focuses the seek field; Enter goes)'],
  ['?', 'This help'],
];
