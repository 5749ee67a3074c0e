// The screen drops what the service answers (a refusal, a timeout, no connection) where it can do
// without the request, and lets its own bugs through.
import { describe, expect, it } from 'vitest';
import { PerpdeskApiError } from '../../src-shared/sdk/rest-client.ts';
import { WsConnectionError, WsLoginLostError, WsRequestError } from '../../src-shared/sdk/ws-client.ts';
import { dropServiceFailure, isServiceFailure } from '../../src-renderer/src/lib/service-failure.ts';

describe('service failures', () => {
  it.each([
    ['an API refusal', new PerpdeskApiError(3015, 'refused', 400)],
    ['no answer', new PerpdeskApiError(-1, 'Cannot reach the service', 0)],
    ['a WebSocket timeout', new WsRequestError('timeout', 'SUBSCRIBE', 'no answer')],
    ['a WebSocket refusal', new WsRequestError('server', 'LOGIN', 'bad signature', 1002)],
    ['a WebSocket that cannot connect', new WsConnectionError('ws://127.0.0.1:1/ws', 1006, '')],
    ['a WebSocket login lost', new WsLoginLostError('The server ended the login', 2002)],
    ['a failed fetch', new TypeError('Failed to fetch')],
  ])('%s is the service talking: dropped', (_what, err) => {
    expect(isServiceFailure(err)).toBe(true);
    expect(() => dropServiceFailure(err)).not.toThrow();
  });

  it.each([
    ['a TypeError of the screen', new TypeError("Cannot read properties of undefined (reading 'price')")],
    ['a RangeError', new RangeError('Invalid time value')],
    ['a thrown string', 'oops'],
  ])('%s is a bug: rethrown as it is', (_what, err) => {
    expect(isServiceFailure(err)).toBe(false);
    expect(() => dropServiceFailure(err)).toThrow();
    try {
      dropServiceFailure(err);
    } catch (e) {
      expect(e).toBe(err);
    }
  });
});
