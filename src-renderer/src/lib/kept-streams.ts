// Streams a feed of the screen follows whatever the connection does. The WebSocket client
// restores every stream it had subscribed after a reconnect, but a SUBSCRIBE it could not send
// because it had never been connected (the service was down or restarting when the screen
// opened; the client reports that at once rather than wait, docs/sdk.md) is no subscription, and
// nothing would send it again: the tape, the ladder or the chart waited for ever. Here it is sent
// again each time the connection opens without it, and the feed is told once it is subscribed.
import type { WsClient } from '../../../src-shared/sdk/ws-client.ts';
import { dropServiceFailure } from './service-failure.ts';

type Connection = Pick<WsClient, 'subscribe' | 'subscriptions' | 'onOpen'>;

/**
 * Subscribes `streams` now, and again when the connection opens while one of them is not
 * subscribed and no SUBSCRIBE of them is waiting for its answer. `subscribed` runs after each
 * SUBSCRIBE accepted (`again`: not the first). Returns the stop (it does not unsubscribe).
 */
export function keepSubscribed(
  ws: Connection,
  streams: readonly string[],
  subscribed?: (again: boolean) => void,
): () => void {
  let stopped = false;
  let waiting = false;
  let sent = 0;
  const send = (): void => {
    const again = sent++ > 0;
    waiting = true;
    ws.subscribe(streams).then(
      () => {
        waiting = false;
        if (!stopped) subscribed?.(again);
      },
      (err: unknown) => {
        waiting = false;
        dropServiceFailure(err);
      },
    );
  };
  send();
  const off = ws.onOpen(() => {
    if (stopped || waiting) return;
    const have = ws.subscriptions;
    if (streams.some((s) => !have.includes(s))) send();
  });
  return () => {
    stopped = true;
    off();
  };
}
