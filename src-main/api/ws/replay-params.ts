// The params of a /ws REPLAY request (hub.ts serves it): `{"action", "speed"?, "ms"?, "time"?}`,
// alone or as the one item of an array. Reading never throws: a bad shape is an error answer.
import { Errors } from '../../../src-shared/errors.ts';
import { errorReply, type Reply, type RequestId } from './protocol.ts';

export interface ReplayParams {
  action: string;
  speed?: number;
  ms?: number;
  time?: number;
}

/** The REPLAY params as typed values, or the error answer naming what is wrong. */
export function readReplayParams(id: RequestId, params: unknown): ReplayParams | { error: Reply } {
  const p = Array.isArray(params) && params.length === 1 ? params[0] : params;
  if (typeof p !== 'object' || p === null || Array.isArray(p))
    return {
      error: errorReply(id, Errors.BAD_REQUEST, 'REPLAY takes "params": {"action": ..., "speed"|"ms"|"time": ...}'),
    };
  const body = p as Record<string, unknown>;
  for (const k of Object.keys(body)) {
    if (k !== 'action' && k !== 'speed' && k !== 'ms' && k !== 'time')
      return { error: errorReply(id, Errors.UNKNOWN_PARAMETER, `Unknown REPLAY parameter '${k.slice(0, 32)}'`) };
  }
  const { action, speed, ms, time } = body;
  if (typeof action !== 'string')
    return {
      error: errorReply(
        id,
        Errors.MISSING_PARAMETER,
        'REPLAY needs "action": play, pause, speed, step, seek or release',
      ),
    };
  for (const [k, v] of [
    ['speed', speed],
    ['ms', ms],
    ['time', time],
  ] as const) {
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
      return { error: errorReply(id, Errors.INVALID_PARAMETER, `REPLAY '${k}' must be a number`) };
  }
  // release takes nothing (the other actions' fields are checked with them, routes/replay.ts readAction)
  if (action === 'release') {
    const extra = (['speed', 'ms', 'time'] as const).find((k) => body[k] !== undefined);
    if (extra !== undefined)
      return {
        error: errorReply(
          id,
          Errors.INVALID_PARAMETER,
          `'${extra}' goes with action '${extra === 'ms' ? 'step' : extra === 'time' ? 'seek' : 'speed'}', not 'release'`,
        ),
      };
  }
  return { action, speed: speed as number | undefined, ms: ms as number | undefined, time: time as number | undefined };
}
