// A dialog on one of the account's records (TP/SL, margin, Modify, Modify stop) closes when the
// login changes (workspace-store.ts followLogin). Before, a TP/SL dialog opened on the local
// account's BTCUSDT long stayed open when another tab of the browser logged in as another account,
// and its Save set the take profit (105,130.2) of that account's BTCUSDT long.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createWorkspaceStore, followLogin } from '../../src-renderer/src/lib/workspace-store.ts';
import type { OrderRecord, PositionRecord } from '../../src-shared/types.ts';

const position = { symbol: 'BTCUSDT', position_side: 1 } as PositionRecord;
const order = { id: '41', symbol: 'BTCUSDT' } as OrderRecord;

function setup() {
  const session = createStore(() => ({ status: 'ready', apiKey: 'keyA' as string | null }));
  const workspace = createWorkspaceStore();
  const stop = followLogin(workspace, session);
  return { session, workspace, stop };
}

describe('dialogs on the account’s records and the login', () => {
  it('the TP/SL dialog closes when another account logs in', () => {
    const { session, workspace, stop } = setup();
    workspace.getState().actions.openTpSl(position);
    session.setState({ status: 'ready', apiKey: 'keyB' });
    expect(workspace.getState().overlay).toBeNull();
    expect(workspace.getState().tpslOf).toBeNull();
    stop();
  });

  it('the Modify dialog, with help over it, closes at a log-out', () => {
    const { session, workspace, stop } = setup();
    workspace.getState().actions.openAmend(order);
    workspace.getState().actions.open('help');
    session.setState({ status: 'anonymous', apiKey: null });
    expect(workspace.getState()).toMatchObject({ overlay: null, help: false, amending: null });
    stop();
  });

  it('leaves a panel that is no account record’s open (Settings), and a dialog while the login stays', () => {
    const { session, workspace, stop } = setup();
    workspace.getState().actions.open('settings');
    session.setState({ status: 'anonymous', apiKey: null });
    expect(workspace.getState().overlay).toBe('settings');
    workspace.getState().actions.close();
    session.setState({ status: 'ready', apiKey: 'keyA' });
    workspace.getState().actions.openTpSl(position);
    session.setState({ status: 'ready', apiKey: 'keyA' });
    expect(workspace.getState().overlay).toBe('tpsl');
    stop();
  });
});
