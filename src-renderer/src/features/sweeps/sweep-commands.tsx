// The Sweeps page's commands to run from the repository, each with its Copy button: the first
// sweep's (GET /api/v1/sweep-example), the selected sweep's resume, and its --like on other data.
// The service gives them as the CLI prints them (src-main/sweep/cli-lines.ts).
import { useEffect, useState } from 'react';
import { useServices } from '../../lib/use-services.ts';
import { likeCommand } from './sweeps-view.ts';
import type { SweepSummaryWire } from '../../../../src-shared/types/sweeps.ts';

/** Copies a command to the clipboard, a toast saying whether it went. */
function useCopy(): (cmd: string) => void {
  const toasts = useServices().toasts;
  const failed = () => toasts.getState().actions.push({ kind: 'error', title: 'Could not copy the command' });
  return (cmd) => {
    // no clipboard on a page that is not a secure context (the screen opened at a LAN address:
    // --host 0.0.0.0): the click did nothing, not even this toast
    if (navigator.clipboard === undefined) {
      failed();
      return;
    }
    navigator.clipboard
      .writeText(cmd)
      .then(() => toasts.getState().actions.push({ kind: 'success', title: 'Command copied' }), failed);
  };
}

/** One command of the page's to run from the repository, with its Copy button. */
export function CommandLine({
  label,
  cmd,
  copyLabel,
  testId,
}: {
  label: string;
  cmd: string;
  copyLabel: string;
  testId: string;
}) {
  const copy = useCopy();
  return (
    <div className="sweep-resume" data-testid={testId}>
      <span>{label}</span>
      <code className="sweeps-hint">{cmd}</code>
      <button type="button" onClick={() => copy(cmd)} aria-label={copyLabel}>
        Copy
      </button>
    </div>
  );
}

/** The command that resumes the selected sweep, to copy (docs/sweeps.md, Resume). */
export function ResumeLine({ sweep }: { sweep: SweepSummaryWire }) {
  // the service's, as the CLI prints it: with the folder's --data-dir and the sweep's queue when it needs them
  const cmd = sweep.commands.resume;
  // another build started it: the CLI refuses its resume (two builds' figures), so the page offers
  // what the CLI runs, the sweep again as a new one of this build
  const rerun = sweep.commands.rerun;
  if (cmd === null && rerun !== null)
    return (
      <CommandLine
        testId="sweep-rerun"
        label="Started by another build than this checkout's (its resume is refused): run it again as a new sweep:"
        cmd={rerun}
        copyLabel="Copy the command that runs it again"
      />
    );
  if (cmd === null) return null;
  return (
    <CommandLine
      testId="sweep-resume"
      label={`${sweep.errors > 0 && sweep.done >= sweep.jobs ? `Run its ${sweep.errors} error jobs again` : 'Resume it'}:`}
      cmd={cmd}
      copyLabel="Copy the resume command"
    />
  );
}

/** The command that runs the selected sweep's bot, sets and options on other data (--like), with a span to type. */
export function LikeLine({ sweep }: { sweep: SweepSummaryWire }) {
  const copy = useCopy();
  const [replay, setReplay] = useState(sweep.replay);
  useEffect(() => setReplay(sweep.replay), [sweep.id, sweep.replay]);
  const cmd = likeCommand(sweep, replay);
  return (
    <div className="sweep-resume" data-testid="sweep-like">
      <label>
        Run its sets on other data (out of sample):{' '}
        <input
          value={replay}
          onChange={(e) => setReplay(e.target.value)}
          spellCheck={false}
          aria-label="The other data: SYMBOL@FROM..TO"
          title="SYMBOL@FROM..TO, e.g. BTCUSDT@2025-02-01..2025-02-28"
        />
      </label>
      <code className="sweeps-hint">{cmd}</code>
      <button type="button" onClick={() => copy(cmd)} aria-label="Copy the command that runs its sets on other data">
        Copy
      </button>
    </div>
  );
}
