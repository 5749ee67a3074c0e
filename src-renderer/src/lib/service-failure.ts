// Which failures the screen expects from the service, and which are its own bugs. A request the
// venue refuses or that never reaches it ends in PerpdeskApiError (REST), WsRequestError,
// WsConnectionError or WsLoginLostError (WebSocket) or a fetch TypeError: an outcome a caller
// may show or do without. Anything else is a bug in the screen; it is rethrown, so it reaches
// the console instead of passing for a refusal. Pure: no DOM.
import { PerpdeskApiError } from '../../../src-shared/sdk/rest-client.ts';
import { WsConnectionError, WsLoginLostError, WsRequestError } from '../../../src-shared/sdk/ws-client.ts';
import { isNetworkFailure } from './network-failure.ts';

/** Whether `err` is the service's answer (a refusal, a timeout, no connection), not a bug. */
export function isServiceFailure(err: unknown): boolean {
  return (
    err instanceof PerpdeskApiError ||
    err instanceof WsRequestError ||
    err instanceof WsConnectionError ||
    err instanceof WsLoginLostError ||
    isNetworkFailure(err)
  );
}

/**
 * An error sink (WsClient.onError, LocalOrderBook's onError, poll()) that keeps the console for
 * bugs: a handler's exception is logged; socket events and service failures, which the
 * connection status already shows, are left out.
 */
export function reportBugs(err: unknown): void {
  if (err instanceof Error && !isServiceFailure(err)) console.error(err);
}

/** `.catch()` of a request the screen can do without: a service failure is dropped, anything else rethrown. */
export function dropServiceFailure(err: unknown): void {
  if (!isServiceFailure(err)) throw err;
}
