// The replay banner: a violet strip across the top of a replay venue's screen that cannot be
// taken for the live market (REPLAY, the symbols, the historical date and time running at the
// replay's speed, playing / paused / lockstep / finished, how far through the span), with the
// controls: play / pause, speed presets, step by 1 s / 1 m / 1 h, seek to a time, the report
// and "Back to live". Its grid row exists from the first render on a replay venue (the mode is
// probed before the screen renders), so the screen does not move when the status arrives. A
// refused control's message takes a line of its own under the row (replay.css).
// While the connection is lost the clock stands still ("no connection"); a replay found gone
// with its service (replay-link.ts) is said in words, with the way back to the live market.
import { useEffect, useRef, useState } from 'react';
import { useServices, useSel } from '../../lib/use-services.ts';
import { heldWall, replayNow, seekTarget } from './replay-store.ts';
import type { ReplayStatusView } from './replay-view.ts';
import {
  canPlay,
  datasetsTitle,
  playState,
  progress,
  SPEED_PRESETS,
  speedLabel,
  STEPS,
  utcSecond,
} from './replay-view.ts';
import './replay.css';

/** The seek field, focused by the `G` key. */
export const SEEK_INPUT_ID = 'replay-seek-input';

export function ReplayBanner() {
  const s = useServices();
  const status = useSel(s.replay, (r) => r.status);
  const error = useSel(s.replay, (r) => r.error);
  const busy = useSel(s.replay, (r) => r.busy);
  const link = useSel(s.replay, (r) => r.link);
  const [seek, setSeek] = useState('');
  const actions = s.replay.getState().actions;
  // A replay's page opens (Start replay, its login link) with the focus on its banner, the page's
  // first region, as a drawer takes the focus itself: it started on the body, where a screen reader
  // said nothing of where it was. Once, and only when nothing has the focus yet.
  const region = useRef<HTMLDivElement>(null);
  const greeted = useRef(false);
  const shown = status !== null;
  useEffect(() => {
    if (greeted.current || !shown || region.current === null) return;
    greeted.current = true;
    const had = document.activeElement;
    if (had === null || had === document.body) region.current.focus();
  }, [shown]);
  if (status === null) return <div className="replay-banner" data-testid="replay-banner" aria-busy="true" />;
  if (link === 'ended') return <EndedBanner status={status} />;
  const state = link === 'down' ? 'disconnected' : playState(status);
  // finished, or faulted (applying history failed): nothing moves it any more
  const stopped = status.finished || Boolean(status.fault);
  const doSeek = (): void => {
    // forward of the clock shown, not of the last status (seekTarget); a refusal here is the
    // store's, as the service's: the next control (a step, play) clears it
    const target = seekTarget(seek, s.replay.getState(), Date.now());
    // a refused time stays in the field, selected: the time typed next replaces it (as after G)
    const selectRefused = (): void => (document.getElementById(SEEK_INPUT_ID) as HTMLInputElement | null)?.select();
    if ('error' in target) {
      actions.refuse(target.error);
      return selectRefused();
    }
    void actions.control({ action: 'seek', time: target.time }).then((ok) => {
      if (!ok) return selectRefused();
      setSeek('');
      // back to the screen's keys (Space, +, -, ...) once the seek is done
      (document.activeElement as HTMLElement | null)?.blur();
    });
  };
  return (
    <div
      className={`replay-banner ${state}`}
      data-testid="replay-banner"
      role="region"
      aria-label="Replay controls"
      data-state={state}
      tabIndex={-1}
      ref={region}
    >
      <div className="replay-row">
        <span className="replay-tag" title="This is a replay of historical market data, not the live market">
          REPLAY
        </span>
        <Symbols status={status} />
        {/* the clock, and under it the latencies the replay runs with */}
        <span className="replay-when">
          <ReplayClock />
          {(status.order_latency > 0 || status.response_latency > 0 || status.data_latency > 0) && (
            <span
              className="replay-latency"
              data-testid="replay-latency"
              title="Order entry / response / market-data latency, ms of history (docs/replay.md, Latency)"
            >
              latency {status.order_latency} / {status.response_latency} / {status.data_latency} ms
            </span>
          )}
        </span>
        <span className="replay-progress" title={`${utcSecond(status.start)} → ${utcSecond(status.until)} UTC`}>
          <span style={{ width: `${(progress(status) * 100).toFixed(1)}%` }} />
        </span>
        <span
          className={`replay-state ${state}`}
          data-testid="replay-state"
          title={
            status.fault
              ? `History could not be read at ${utcSecond(status.fault.time)} UTC (${status.fault.message}): the replay ` +
                'stopped there for good and its report is incomplete; close it and open it again'
              : undefined
          }
        >
          {state === 'faulted'
            ? 'history failed · stopped'
            : state === 'playing'
              ? `▶ ${speedLabel(status.speed)}`
              : state === 'paused'
                ? `❚❚ paused · ${speedLabel(status.speed)}`
                : state === 'lockstep'
                  ? 'lockstep'
                  : state === 'disconnected'
                    ? 'no connection'
                    : 'finished'}
        </span>
        <span className="replay-controls">
          <button
            className="rb"
            data-testid="replay-play"
            disabled={busy || !canPlay(status)}
            title={status.paused ? 'Play (Space)' : 'Pause (Space)'}
            aria-label={status.paused ? 'Play' : 'Pause'}
            onClick={() => void actions.togglePlay()}
          >
            {status.paused ? '▶' : '❚❚'}
          </button>
          <select
            className="rb"
            aria-label="Replay speed"
            title="Speed (- / +)"
            value={SPEED_PRESETS.includes(status.speed as (typeof SPEED_PRESETS)[number]) ? String(status.speed) : ''}
            onChange={(e) => void actions.control({ action: 'speed', speed: Number(e.target.value) })}
          >
            {!SPEED_PRESETS.includes(status.speed as (typeof SPEED_PRESETS)[number]) && (
              <option value="">{speedLabel(status.speed)}</option>
            )}
            {SPEED_PRESETS.map((p) => (
              <option key={p} value={p}>
                {speedLabel(p)}
              </option>
            ))}
          </select>
          {STEPS.map(([label, ms]) => (
            <button
              key={label}
              className="rb"
              disabled={busy || stopped}
              title={`Step ${label} of history at once (${label === '1s' ? 'N' : label === '1m' ? '.' : 'Shift+.'})`}
              aria-label={`Step ${label}`}
              onClick={() => void actions.control({ action: 'step', ms })}
            >
              +{label}
            </button>
          ))}
          <form
            className="replay-seek"
            onSubmit={(e) => {
              e.preventDefault();
              doSeek();
            }}
          >
            <input
              id={SEEK_INPUT_ID}
              aria-label="Seek to (UTC)"
              placeholder="seek to … (G)"
              value={seek}
              onChange={(e) => {
                setSeek(e.target.value);
                actions.clearError();
              }}
            />
            {/* not disabled while another control is in flight: a disabled default button would
              swallow the field's Enter (HTML's implicit submission), and the seek queues fine */}
            <button className="rb" type="submit" disabled={stopped || seek.trim() === ''}>
              Go
            </button>
          </form>
        </span>
        <span className="replay-right">
          <button
            className="rb"
            title="Session report (Shift+R)"
            onClick={() => s.workspace.getState().actions.setTab('replay-report')}
          >
            Report
          </button>
          <BackToLive status={status} />
        </span>
      </div>
      {/* a refused control (a seek, a step, play): on its own line under the row, whole (the row
          has no room for it, down to 1024 px), until the next control */}
      {error && (
        <p className="replay-error" role="alert" data-testid="replay-error">
          {error}
        </p>
      )}
    </div>
  );
}

function BackToLive({ status, ended = false }: { status: ReplayStatusView; ended?: boolean }) {
  return (
    <button
      className="rb live"
      disabled={!status.live_url}
      title={
        !status.live_url
          ? 'This replay was started on its own (command line): there is no live screen to go back to'
          : ended
            ? 'Back to the live market'
            : 'Back to the live market (the replay keeps its state)'
      }
      onClick={() => status.live_url && window.location.assign(status.live_url)}
    >
      Back to live
    </button>
  );
}

/** The replay is gone with its service: what it was, that its report is lost, and the way back. */
function EndedBanner({ status }: { status: ReplayStatusView }) {
  return (
    <div
      className="replay-banner ended"
      data-testid="replay-banner"
      role="region"
      aria-label="Replay controls"
      data-state="ended"
    >
      <div className="replay-row">
        <span className="replay-tag">REPLAY</span>
        <Symbols status={status} />
        <span className="replay-ended" role="alert" data-testid="replay-ended">
          Replay ended: the service it ran in stopped (or the replay was closed). The session, its orders and its report
          are gone; start a new one from the live market.
        </span>
        <span className="replay-right">
          <BackToLive status={status} ended />
        </span>
      </div>
    </div>
  );
}

/** The replay's pairs: one is always whole; a long list gives way (cut with "…", whole on hover). */
function Symbols({ status }: { status: ReplayStatusView }) {
  return (
    <span
      className={`replay-symbols${status.symbols.length > 1 ? ' many' : ''}`}
      data-testid="replay-symbols"
      title={datasetsTitle(status)}
    >
      {status.symbols.join(' · ')}
    </span>
  );
}

/** The historical time, moving between pushes at the replay's speed (4 renders a second, this span only). */
function ReplayClock() {
  const s = useServices();
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const paint = (): void => {
      const r = s.replay.getState();
      if (!r.status || !ref.current) return;
      const text = `${utcSecond(replayNow(r.status, r.receivedAt, heldWall(r, Date.now())))} UTC`;
      if (ref.current.textContent !== text) ref.current.textContent = text;
    };
    paint();
    const off = s.replay.subscribe(paint);
    const h = setInterval(paint, 250);
    return () => {
      off();
      clearInterval(h);
    };
  }, [s]);
  return <span className="replay-time" data-testid="replay-time" ref={ref} aria-live="off" />;
}
