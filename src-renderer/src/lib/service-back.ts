// The screen's WebSocket clients wait out a growing delay between their attempts to reconnect (the
// SDK's backoff, up to 30 s: sensible for a bot, not for a screen whose venue is a local service
// back within a second or two of its restart). The screen often knows before its sockets do: a REST
// request answered again (the prices poll runs every 2 s), the window focused again, the browser
// back online. Each such sign makes every followed socket that is waiting for its next attempt try at
// once (WsClient.retryNow, which does nothing to a socket that is open or already trying), so the
// ladder and the order buttons come back with the service.

/** What the screen's sockets offer: an attempt now, when waiting to reconnect. */
interface Retrying {
  retryNow(): unknown;
}

export interface ServiceBack {
  /** A sign the service is there: the followed sockets waiting to reconnect try now. */
  seen(): void;
  /** Follows a socket until the returned function is called. */
  follow(socket: Retrying): () => void;
}

export function createServiceBack(): ServiceBack {
  const sockets = new Set<Retrying>();
  return {
    seen() {
      for (const s of sockets) s.retryNow();
    },
    follow(socket) {
      sockets.add(socket);
      return () => void sockets.delete(socket);
    },
  };
}

/** The window's signs (`target`: the window): focus regained, the browser online again. Returns the stopper. */
export function watchWindowSigns(
  back: ServiceBack,
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
): () => void {
  const seen = (): void => back.seen();
  for (const type of ['focus', 'online']) target.addEventListener(type, seen);
  return () => {
    for (const type of ['focus', 'online']) target.removeEventListener(type, seen);
  };
}
