// The SDK entry point exposes the whole public surface, so a bot imports from one module:
// the clients, their error classes and the enums at run time (this test), and their option
// and record types at compile time (`npm run typecheck` covers test/ and fails on the type
// list below, each read through the entry point's namespace, if one is not exported).
import { describe, expect, it } from 'vitest';
import * as sdk from '../../../src-shared/sdk/index.ts';

export type PublicTypes = [
  sdk.AccountSummary,
  sdk.BookState,
  sdk.ConnectionEvents,
  sdk.DepthSnapshot,
  sdk.DepthUpdate,
  sdk.LocalOrderBookOptions,
  sdk.OrderRecord,
  sdk.OrderRef,
  sdk.OrderRequest,
  sdk.PlacementResult,
  sdk.PositionRecord,
  sdk.RawExchange,
  sdk.RestClientOptions,
  sdk.WsClientOptions,
  sdk.WsState,
];

describe('sdk/index.ts', () => {
  it('exports the clients, their errors, the enums and the signing helper', () => {
    for (const name of ['RestClient', 'PerpdeskApiError', 'WsClient', 'WsRequestError', 'LocalOrderBook'] as const) {
      expect(typeof sdk[name], name).toBe('function');
    }
    const err = new sdk.PerpdeskApiError(3015, 'refused', 400);
    expect([err instanceof Error, err.code, err.status]).toEqual([true, 3015, 400]);
    expect(new sdk.RestClient({ baseUrl: 'http://127.0.0.1:1/' }).baseUrl).toBe('http://127.0.0.1:1');
    expect([sdk.Side.SELL, sdk.PositionSide.SHORT, sdk.PositionAction.CLOSE, sdk.PositionMode.ONE_WAY]).toEqual([
      2,
      2,
      2,
      'one_way',
    ]);
    // docs/sdk.md names these as what a PerpdeskApiError the client raised itself carries; a bot
    // compares against the names, so they must come from the entry point too.
    expect([sdk.CLIENT_ERROR, sdk.NO_ANSWER, sdk.NO_CREDENTIALS, sdk.NOT_SENT]).toEqual([-1, 0, -1, -2]);
    expect(sdk.hmacSha256Hex('key', 'msg')).toBe('2d93cbc1be167bcb1637a4a23cbff01a7878f0c50ee833954ea5221bb1b8c628');
  });
});
