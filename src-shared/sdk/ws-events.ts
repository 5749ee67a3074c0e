// The listeners of a WsClient (ws-client.ts): who hears of pushes, messages, opens, reconnects,
// closes, state changes, subscription changes and errors. A listener that throws is reported to
// the error listeners and never stops the others; an error with no error listener goes to the
// console.
import type { WsCloseInfo, WsState } from './ws-types.ts';

type Listener<A extends unknown[]> = (...args: A) => void;

/** The listener registrations of {@link WsClient}; the client emits through the protected methods. */
export class WsEvents {
  readonly #streamHandlers = new Map<string, Set<Listener<[unknown, string]>>>();
  readonly #messageHandlers = new Set<Listener<[unknown]>>();
  readonly #openListeners = new Set<Listener<[{ reconnect: boolean }]>>();
  readonly #reconnectListeners = new Set<Listener<[]>>();
  readonly #closeListeners = new Set<Listener<[WsCloseInfo]>>();
  readonly #stateListeners = new Set<Listener<[WsState, WsState]>>();
  readonly #subscriptionListeners = new Set<Listener<[readonly string[]]>>();
  readonly #errorListeners = new Set<Listener<[unknown]>>();

  /** Routes pushes of one stream (`data` and the stream name) to `handler`; returns its remover. */
  on(stream: string, handler: (data: unknown, stream: string) => void): () => void {
    let set = this.#streamHandlers.get(stream);
    if (set === undefined) this.#streamHandlers.set(stream, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.#streamHandlers.get(stream) === set) this.#streamHandlers.delete(stream);
    };
  }

  /** Receives every parsed incoming message (answers and pushes); returns its remover. */
  onMessage(handler: (message: unknown) => void): () => void {
    return add(this.#messageHandlers, handler);
  }

  /** Called each time a socket opens, before re-login and re-subscription. */
  onOpen(listener: (info: { reconnect: boolean }) => void): () => void {
    return add(this.#openListeners, listener);
  }

  /** Called after a reconnect once re-login and re-subscription have been answered. */
  onReconnect(listener: () => void): () => void {
    return add(this.#reconnectListeners, listener);
  }

  /** Called each time a connection ends or an attempt fails. */
  onClose(listener: (info: WsCloseInfo) => void): () => void {
    return add(this.#closeListeners, listener);
  }

  /** Called on every state change. */
  onStateChange(listener: (state: WsState, previous: WsState) => void): () => void {
    return add(this.#stateListeners, listener);
  }

  /**
   * Called with the client's `subscriptions` each time they change: a SUBSCRIBE acknowledged, an
   * UNSUBSCRIBE, a stream refused when it was restored after a reconnect, `user` off because the
   * login was lost or back after a login.
   */
  onSubscriptionsChange(listener: (subscriptions: readonly string[]) => void): () => void {
    return add(this.#subscriptionListeners, listener);
  }

  /**
   * Receives what went wrong outside a request's own promise: a failed connection attempt
   * (`WsConnectionError`), a lost login (`WsLoginLostError`), a stream refused on re-subscription
   * (`WsRequestError`), unparsable messages, listener exceptions.
   */
  onError(listener: (error: unknown) => void): () => void {
    return add(this.#errorListeners, listener);
  }

  protected get hasErrorListeners(): boolean {
    return this.#errorListeners.size > 0;
  }

  protected emitPush(stream: string, data: unknown): void {
    const handlers = this.#streamHandlers.get(stream);
    if (handlers !== undefined) this.#emit(handlers, data, stream);
  }

  protected emitMessage(message: unknown): void {
    this.#emit(this.#messageHandlers, message);
  }

  protected emitOpen(info: { reconnect: boolean }): void {
    this.#emit(this.#openListeners, info);
  }

  protected emitReconnect(): void {
    this.#emit(this.#reconnectListeners);
  }

  protected emitClose(info: WsCloseInfo): void {
    this.#emit(this.#closeListeners, info);
  }

  protected emitState(state: WsState, previous: WsState): void {
    this.#emit(this.#stateListeners, state, previous);
  }

  protected emitSubscriptions(subscriptions: readonly string[]): void {
    this.#emit(this.#subscriptionListeners, subscriptions);
  }

  protected emitError(error: unknown): void {
    if (this.#errorListeners.size === 0) {
      console.error(error);
      return;
    }
    for (const l of [...this.#errorListeners]) {
      try {
        l(error);
      } catch (e) {
        console.error(e);
      }
    }
  }

  #emit<A extends unknown[]>(listeners: Set<Listener<A>>, ...args: A): void {
    for (const l of [...listeners]) {
      try {
        l(...args);
      } catch (e) {
        this.emitError(e);
      }
    }
  }
}

function add<T>(set: Set<T>, item: T): () => void {
  set.add(item);
  return () => set.delete(item);
}
