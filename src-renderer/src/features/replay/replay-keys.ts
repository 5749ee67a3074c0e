// The replay's keyboard shortcuts (docs/trading-screen.md, the `?` help): on a replay venue
// Space plays / pauses, `-` / `+` (`_` / `=`) move along the speed presets, `N` / `.` / `>` step 1 s / 1 m /
// 1 h, `G` goes to the seek field and Shift+R opens the report; on the live venue Shift+R opens
// the Replay dialog. Called by hotkeys.ts after its field and overlay checks (nothing here fires
// while typing in a field). `Shift+.` is the physical `.` key with Shift, whatever it types: `>`
// on a US layout, `:` on a German one (where `>` is on another key), so it is read by its code
// as well as by `>`.
import type { Services } from '../../lib/services.ts';
import { SEEK_INPUT_ID } from './replay-banner.tsx';
import { focusAccountTab } from '../../layout/tablist-keys.ts';
import { canPlay, nextSpeed } from './replay-view.ts';

/** Handles `e` if it is a replay key; true when it did. */
export function replayKey(
  s: Services,
  e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'target'> & Partial<Pick<KeyboardEvent, 'code'>>,
): boolean {
  const r = s.replay.getState();
  // Shift+R, not an R of Caps Lock
  if ((e.key === 'R' || e.key === 'r') && e.shiftKey) {
    if (r.mode === 'replay') {
      s.workspace.getState().actions.setTab('replay-report');
      // the focus on the report's tab, as P puts it on the Positions tab (it stayed where it was)
      focusAccountTab('replay-report');
    } else if (r.mode === 'live') s.workspace.getState().actions.open('replay');
    else return false;
    return true;
  }
  if (r.mode !== 'replay' || r.status === null) return false;
  const { actions } = r;
  if (e.key === '>' || (e.code === 'Period' && e.shiftKey)) {
    void actions.control({ action: 'step', ms: 3_600_000 });
    return true;
  }
  switch (e.key) {
    case ' ': {
      // Space on a focused button is that button's click
      const tag = (e.target as HTMLElement | null)?.tagName;
      if (tag === 'BUTTON' || tag === 'A') return false;
      // as the Play button: a lockstep replay's play ran its whole history in seconds
      if (canPlay(r.status)) void actions.togglePlay();
      return true;
    }
    // `=` and `_` are `+` and `-` without / with Shift, as on the chart (shortcuts.ts)
    case '+':
    case '=':
    case '-':
    case '_': {
      const speed = nextSpeed(r.status.speed, e.key === '-' || e.key === '_' ? -1 : 1);
      if (speed !== r.status.speed) void actions.control({ action: 'speed', speed });
      return true;
    }
    case 'n':
    case 'N':
      void actions.control({ action: 'step', ms: 1_000 });
      return true;
    case '.':
      void actions.control({ action: 'step', ms: 60_000 });
      return true;
    case 'g':
    case 'G': {
      const field = document.getElementById(SEEK_INPUT_ID) as HTMLInputElement | null;
      field?.focus();
      // a time left in the field (a refused seek's) is selected: the time typed next replaces it
      field?.select();
      return true;
    }
    default:
      return false;
  }
}
