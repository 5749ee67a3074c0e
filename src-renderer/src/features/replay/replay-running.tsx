// The Replay dialog's running replays (GET /api/v1/replays): each named by its symbols and
// start (two replays of one pair differ by their start), where its history stands (paused,
// finished, history failed), with Open (its screen) and Close.
// Close cannot be undone (the replay's accounts, orders and session report live in memory
// only), so it asks first, inline, like Cancel all. The focus, in the confirmation, never falls to
// the page when it goes (a modal drawer keeps it inside): Keep replay (or Esc) hands it back to the
// row's Close, Close replay to the Close of the row now in its place (the last row's), or, the list
// gone with its last replay, to the dialog's first control after it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../lib/frame.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import { useServices } from '../../lib/use-services.ts';
import { firstControl } from '../../layout/keep-focus.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { ConfirmBar } from '../../layout/confirm-bar.tsx';
import { runningNames, runningState, runningWhen, type ReplayStatusView } from './replay-view.ts';

interface Running {
  id: string | number;
  url: string;
  login_url: string;
  status: ReplayStatusView | null;
}

export function RunningReplays() {
  const s = useServices();
  const [running, setRunning] = useState<Running[]>([]);
  const [asking, setAsking] = useState<Running['id'] | null>(null);
  const { busy, error, send } = useSubmit();
  const box = useRef<HTMLFieldSetElement>(null);
  // what holds the list (the dialog's form): where the focus goes once the list is gone
  const around = useRef<HTMLElement | null>(null);
  // the row whose confirmation went, the focus to be handed on once the list shows its outcome
  const [refocus, setRefocus] = useState<{ id: Running['id']; index: number } | null>(null);

  const load = useCallback(async (): Promise<void> => {
    try {
      setRunning(runningList(await s.api.call<unknown>('GET', '/api/v1/replays')));
    } catch (err) {
      // a replay venue (or one that cannot be reached) lists no replays of its own
      dropServiceFailure(err);
      setRunning([]);
    }
  }, [s]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (refocus === null) return;
    setRefocus(null);
    // unless the user put it somewhere meanwhile
    if (document.activeElement !== null && document.activeElement !== document.body) return;
    const closes = [...(box.current?.querySelectorAll<HTMLButtonElement>('button[data-close-replay]') ?? [])];
    const to =
      closes.find((b) => b.dataset.closeReplay === String(refocus.id)) ??
      closes[Math.min(refocus.index, closes.length - 1)] ??
      firstControl(around.current) ??
      around.current?.closest<HTMLElement>('[role="dialog"]');
    to?.focus();
  }, [refocus]);

  const close = async (id: Running['id'], name: string, index: number): Promise<void> => {
    around.current = box.current?.parentElement ?? null;
    await send(() => s.api.call('DELETE', `/api/v1/replays/${encodeURIComponent(String(id))}`), {
      describe: (e) => `Could not close the replay ${name}: ${errorText(e)}`,
    });
    setAsking(null);
    await load();
    setRefocus({ id, index });
  };

  if (running.length === 0) return null;
  const names = runningNames(running);
  return (
    <fieldset data-testid="replay-running" ref={box}>
      <legend>Running replays</legend>
      <table className="grid dense replay-symbols">
        <tbody>
          {running.map((r, i) => (
            <RunningRow
              key={String(r.id)}
              replay={r}
              name={names[i]}
              asking={asking === r.id}
              busy={busy}
              onAsk={() => setAsking(r.id)}
              onKeep={() => {
                setAsking(null);
                setRefocus({ id: r.id, index: i });
              }}
              onClose={() => void close(r.id, names[i], i)}
            />
          ))}
        </tbody>
      </table>
      {error && (
        <p className="oe-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function RunningRow(props: {
  replay: Running;
  name: string;
  asking: boolean;
  busy: boolean;
  onAsk(): void;
  onKeep(): void;
  onClose(): void;
}) {
  const { replay: r, name } = props;
  return (
    <>
      <tr>
        <td className="sym">{r.status?.symbols.join(' · ') ?? `#${r.id}`}</td>
        <td>
          {r.status && (
            <>
              from <span className="when">{runningWhen(r.status).from}</span>, at{' '}
              <span className="when">{runningWhen(r.status).at}</span> UTC
              {runningState(r.status) !== '' && (
                <span className="dim" data-testid="replay-running-state">
                  {' '}
                  · {runningState(r.status)}
                </span>
              )}
            </>
          )}
        </td>
        <td className="num">
          <button
            type="button"
            className="btn-small"
            aria-label={`Open replay ${name}`}
            onClick={() => window.location.assign(r.login_url)}
          >
            Open
          </button>{' '}
          <button
            type="button"
            className="btn-small danger"
            aria-label={`Close replay ${name}`}
            aria-expanded={props.asking}
            data-close-replay={String(r.id)}
            onClick={props.onAsk}
          >
            Close
          </button>
        </td>
      </tr>
      {props.asking && (
        <tr>
          <td colSpan={3}>
            <ConfirmBar
              text={`Close the replay ${name}? Its account, orders and session report are lost.`}
              action="Close replay"
              dismiss="Keep replay"
              busy={props.busy}
              testId="replay-close-confirm"
              onConfirm={props.onClose}
              onCancel={props.onKeep}
            />
          </td>
        </tr>
      )}
    </>
  );
}

/** GET /api/v1/replays' `data`: a list, or `{ replays: [...] }`. */
function runningList(data: unknown): Running[] {
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { replays?: unknown }).replays)
      ? (data as { replays: unknown[] }).replays
      : [];
  return list.filter((r): r is Running => !!r && typeof r === 'object' && typeof (r as Running).url === 'string');
}
