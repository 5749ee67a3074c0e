// A request that never got an answer (the service is stopped, the port is closed) is not a
// refusal: nothing reached the venue, so nothing was refused. The SDK reports it as
// PerpdeskApiError code CLIENT_ERROR with status NO_ANSWER; a raw fetch TypeError means the same. Pure:
// no DOM, so the stores that use it stay unit-testable under Node.
import { PerpdeskApiError } from '../../../src-shared/sdk/rest-client.ts';
import { CLIENT_ERROR, NO_ANSWER } from '../../../src-shared/sdk/rest-request.ts';

/** What the order form says when an order could not be sent at all. */
export const NOT_SENT_TEXT =
  'Not sent: the service cannot be reached. Check that perpdesk is running; the screen reconnects by itself.';

/** What the order form says when an order is sent while the market connection is lost (nothing goes out). */
export const MARKET_LOST_TEXT = 'Not sent: the market connection is lost; orders are disabled until it is back.';

export function isNetworkFailure(err: unknown): boolean {
  if (err instanceof PerpdeskApiError) return err.code === CLIENT_ERROR && err.status === NO_ANSWER;
  return err instanceof TypeError && /fetch|network/i.test(err.message);
}
