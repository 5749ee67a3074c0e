// The Replay dialog's running replays (GET /api/v1/replays): each named by its symbols and
// start (two replays of one pair differ by their start), with Open (its screen) and Close.
// Close cannot be undone (the replay's accounts, orders and session report live in memory
// only), so it asks first, inline, like Cancel all.
import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../../lib/frame.ts';
import { dropServiceFailure } from '../../lib/service-failure.ts';
import { useServices } from '../../lib/use-services.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { ConfirmBar } from '../orders/confirm-bar.tsx';
import { runningNames, runningWhen, type ReplayStatusView } from './replay-view.ts';

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

  const close = async (id: Running['id'], name: string): Promise<void> => {
    await send(() => s.api.call('DELETE', `/api/v1/replays/${encodeURIComponent(String(id))}`), {
      describe: (e) => `Could not close the replay ${name}: ${errorText(e)}`,
    });
    setAsking(null);
    await load();
  };

  if (running.length === 0) return null;
  const names = runningNames(running);
  return (
    <fieldset data-testid="replay-running">
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
              onKeep={() => setAsking(null)}
              onClose={() => void close(r.id, names[i])}
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
