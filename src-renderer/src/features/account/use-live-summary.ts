// The account summary as the screen shows it: the server's, with what depends on the mark
// recomputed at the live marks (live-summary.ts), so the account panel, the order form and the
// positions table agree between the server's updates.
import type { AccountSummary } from '../../../../src-shared/sdk/rest-client.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { liveSummary } from './live-summary.ts';

export function useLiveSummary(): AccountSummary | null {
  const s = useServices();
  const server = useSel(s.account, (x) => x.summary);
  const positions = useSel(s.positions, (x) => x.positions);
  const tickers = useSel(s.tickers, (x) => x.tickers);
  return server === null ? null : liveSummary(server, positions, (symbol) => tickers[symbol]?.mark);
}
