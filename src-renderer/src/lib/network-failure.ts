// A request that never got an answer (the service is stopped, the port is closed) is not a
// refusal: nothing reached the venue, so nothing was refused. The SDK reports it as
// PerpdeskApiError code CLIENT_ERROR with status NO_ANSWER; a raw fetch TypeError means the same. Pure:
// no DOM, so the stores that use it stay unit-testable under Node.
import { PerpdeskApiError } from '../../../src-shared/sdk/rest-client.ts';
import { CLIENT_ERROR, NO_ANSWER } from '../../../src-shared/sdk/rest-request.ts';

/** What the order form says when an order could not be sent at all. */
export const NOT_SENT_TEXT =
  'Not sent: the service cannot be reached. Check that perpdesk is running; the screen reconnects by itself.';

/**
 * What the order form says when a change got no answer within the client's time-out: the service
 * took the request and may have applied it (a hung or very busy service), so it is not "not sent".
 */
export const NO_ANSWER_TEXT =
  'No answer: the service took the request but did not answer in time, so it may have been applied. Check Open orders and Positions before sending it again.';

/** Whether `err` is a request's time-out: sent, and perhaps applied (PerpdeskApiError.timedOut). */
export const isTimedOut = (err: unknown): boolean => err instanceof PerpdeskApiError && err.timedOut;

/** What the order form says when an order is sent while the market connection is lost (nothing goes out). */
export const MARKET_LOST_TEXT = 'Not sent: the market connection is lost; orders are disabled until it is back.';

/** A request that got no answer: the service unreachable, or its time-out passed (then see isTimedOut). */
export function isNetworkFailure(err: unknown): boolean {
  if (err instanceof PerpdeskApiError) return err.code === CLIENT_ERROR && err.status === NO_ANSWER;
  return err instanceof TypeError && /fetch|network/i.test(err.message);
}
