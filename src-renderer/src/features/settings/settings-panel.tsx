// Settings: the API key and secret (show, copy, regenerate), the local API address for
// external bots, the bot whitelist, desktop notifications (notices-section.tsx), the simulator
// (speed, pause, fast mode, seed) and the paper balance. Fast mode (POST /api/v1/sim {fast}) is
// shown and switched here: before, a venue in fast mode showed its unused speed, "1x", as the one
// in force, and a speed picked left fast mode on.
// The two destructive actions (regenerating the key, resetting the paper account) each ask
// for a confirmation that says what will happen (a ConfirmBar: the focus on its Cancel, Esc backs
// out of it, not out of the drawer, and either answer leaves the focus on the button that asked);
// the reset amount is pre-filled with the
// account's total deposits (the summary's total_deposits) and always sent explicitly, so the
// wallet ends at the amount the confirmation names (never the server's default).
// An action's result is said in its section, under the control used (settings-result.tsx).
// The speed field is checked here (sim-speed.ts) and Enter applies it; its error stays until
// the next edit (the 2 s simulator refresh does not clear it). The position mode (hedge /
// one-way) switches here; the venue's reason is shown when it refuses (3015 while a position
// or an open order exists).
// The focus never falls to the page: a button stays focusable while its request runs
// (aria-disabled, a press then does nothing), and a control that goes (Log out, a section's
// content replaced) hands the focus to the same control once it is back, else to its section.
import { useEffect, useRef, useState } from 'react';
import { fmtAmount, fmtDateTime } from '../../lib/format.ts';
import { parseDecimalInput } from '../../lib/decimal-input.ts';
import { resetBalanceCheck } from './reset-balance.ts';
import { wsUrl } from '../../lib/connection.ts';
import { useServices, useSel } from '../../lib/use-services.ts';
import { parseSimSpeed } from './sim-speed.ts';
import { Thinned } from './sim-thinned.tsx';
import { Drawer } from '../../layout/drawer.tsx';
import { NEW_LINK } from '../order-entry/login-hint.tsx';
import { NoticesSection } from './notices-section.tsx';
import { ConfirmBar } from '../../layout/confirm-bar.tsx';
import { SettingsResult } from './settings-result.tsx';
import { CONTROLS, keepFocus } from '../../layout/keep-focus.ts';
import {
  editWhitelist,
  followWhitelist,
  whitelistChangedNote,
  whitelistFieldOf,
  whitelistIps,
  type WhitelistField,
} from './whitelist-field.ts';
import './settings.css';

const SPEEDS = [1, 10, 60, 600, 3600];

/** The whitelist's section and its field, where the bot panel's "Edit whitelist" puts the focus. */
export const WHITELIST_SECTION_ID = 'settings-whitelist';
export const WHITELIST_FIELD_ID = 'settings-whitelist-ips';

export function SettingsPanel() {
  const s = useServices();
  const open = useSel(s.workspace, (w) => w.overlay === 'settings');
  if (!open) return null;
  return (
    <Drawer title="Settings" testId="settings-panel" onClose={() => s.workspace.getState().actions.close()}>
      <SettingsBody />
    </Drawer>
  );
}

function SettingsBody() {
  const s = useServices();
  const st = useSel(s.settings, (x) => x);
  const session = useSel(s.session, (x) => x);
  const deposits = useSel(s.account, (x) => x.summary?.total_deposits);
  const [reveal, setReveal] = useState(false);
  const [confirmRegen, setConfirmRegen] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [balance, setBalance] = useState<string | null>(null);
  const [ipsField, setIpsField] = useState<WhitelistField | null>(null);
  const ipsText = ipsField?.text ?? '';
  const [speed, setSpeed] = useState('');
  const [speedError, setSpeedError] = useState<string | null>(null);
  const positionMode = useSel(s.account, (x) => x.summary?.position_mode);
  const replay = useSel(s.replay, (r) => r.mode === 'replay');
  const root = useRef<HTMLDivElement>(null);
  const regenButton = useRef<HTMLButtonElement>(null);
  const resetButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // the element itself, not the ref (null once the drawer has unmounted)
    const el = root.current!;
    return keepFocus(el, placeOf, (at) => focusAfter(el, at));
  }, []);

  useEffect(() => {
    void st.actions.load();
    const h = setInterval(() => void Promise.all([st.actions.refreshSim(), st.actions.refreshWhitelist()]), 2000);
    return () => clearInterval(h);
  }, [st.actions]);
  useEffect(() => {
    // read again while open (another tab, a bot): shown, unless the field holds an edit
    const ips = st.ips;
    if (ips) setIpsField((f) => (f === null ? whitelistFieldOf(ips) : followWhitelist(f, ips)));
  }, [st.ips]);
  useEffect(() => {
    if (st.sim) setSpeed(String(st.sim.speed));
  }, [st.sim?.speed]);

  const applySpeed = async (value?: number): Promise<void> => {
    let v = value;
    if (v === undefined) {
      const p = parseSimSpeed(speed);
      if (!p.ok) return setSpeedError(p.reason);
      v = p.value;
    }
    // a speed picked runs the market at that speed: in fast mode it was kept for later, unused
    const err = await st.actions.setSim(st.sim?.fast ? { speed: v, fast: false } : { speed: v });
    setSpeedError(err === null ? null : `Speed not changed: ${err}`);
    // the field shows the speed in force again (also when it did not change)
    if (err === null) setSpeed(String(v));
  };
  const changedNote = ipsField && whitelistChangedNote(ipsField);
  const saveWhitelist = async (): Promise<void> => {
    // the venue's list is now the edit (as it kept it: loopback entries stay)
    if (await st.actions.saveWhitelist(whitelistIps(ipsText))) {
      const saved = s.settings.getState().ips;
      if (saved) setIpsField(whitelistFieldOf(saved));
    }
  };
  const toggleFast = async (): Promise<void> => {
    const err = await st.actions.setSim({ fast: !st.sim?.fast });
    setSpeedError(err === null ? null : `Not changed: ${err}`);
  };
  const togglePause = async (): Promise<void> => {
    const err = await st.actions.setSim({ paused: !st.sim?.paused });
    setSpeedError(err === null ? null : `Not changed: ${err}`);
  };

  const copy = (text: string, what: string): void => {
    void navigator.clipboard?.writeText(text).then(
      () => s.toasts.getState().actions.push({ kind: 'success', title: `${what} copied` }),
      () => s.toasts.getState().actions.push({ kind: 'error', title: `Could not copy the ${what.toLowerCase()}` }),
    );
  };
  const regenerate = async (): Promise<void> => {
    setConfirmRegen(false);
    const r = await st.actions.regenerate();
    if (r) s.session.getState().actions.replace(r.api_key, r.api_secret);
  };
  // The amount shown: what the trader typed, else the total deposits once they are known.
  // (all their decimals: 2 rounded 12346.36169700 to 12346.36, and the reset set that)
  const depositsText = deposits !== undefined && Number(deposits) > 0 ? fmtAmount(deposits).replace(/,/g, '') : '';
  const amountText = balance ?? depositsText;
  const amount = parseDecimalInput(amountText);
  const amountProblem = resetBalanceCheck(amount);
  const amountOk = amount.kind === 'ok' && amountProblem === null;
  const reset = async (): Promise<void> => {
    setConfirmReset(false);
    if (amount.kind !== 'ok' || amountProblem !== null) return;
    const r = await st.actions.reset(amount.value);
    if (r) {
      s.account.getState().actions.apply(r);
      await Promise.all([s.positions.getState().actions.refresh(), s.orders.getState().actions.refresh()]).catch(
        () => {},
      );
    }
  };

  return (
    <div className="settings" ref={root}>
      <section tabIndex={-1} aria-label="API key">
        <h3>API key</h3>
        {session.status === 'ready' ? (
          <>
            <div className="kv">
              <span>Key</span>
              <code data-testid="api-key">{session.apiKey}</code>
              <button
                className="btn-small"
                aria-label="Copy API key"
                onClick={() => copy(session.apiKey ?? '', 'API key')}
              >
                Copy
              </button>
            </div>
            <div className="kv">
              <span>Secret</span>
              <code data-testid="api-secret">{reveal ? session.apiSecret : '•'.repeat(24)}</code>
              <button
                className="btn-small"
                aria-label={`${reveal ? 'Hide' : 'Show'} API secret`}
                onClick={() => setReveal((v) => !v)}
              >
                {reveal ? 'Hide' : 'Show'}
              </button>
              <button
                className="btn-small"
                aria-label="Copy API secret"
                onClick={() => copy(session.apiSecret ?? '', 'API secret')}
              >
                Copy
              </button>
            </div>
            <button
              ref={regenButton}
              className="btn-small"
              aria-expanded={confirmRegen}
              aria-disabled={st.busy || undefined}
              onClick={() => !st.busy && setConfirmRegen(true)}
            >
              Regenerate key and secret…
            </button>
            {confirmRegen && (
              <ConfirmBar
                testId="regenerate-confirm"
                text="The current key stops working at once (bots using it too). Continue?"
                action="Regenerate"
                busy={st.busy}
                onConfirm={() => {
                  regenButton.current?.focus();
                  void regenerate();
                }}
                onCancel={() => {
                  setConfirmRegen(false);
                  regenButton.current?.focus();
                }}
              />
            )}
            <p className="muted small">
              Logged in{' '}
              {session.source === 'desktop'
                ? 'as the desktop account'
                : session.source === 'token'
                  ? 'with the login link'
                  : 'on this browser (with a login link used earlier)'}
              .
              {session.source !== 'desktop' && (
                <>
                  {' '}
                  <button className="link" onClick={() => s.session.getState().actions.logout()}>
                    Log out
                  </button>
                </>
              )}
            </p>
          </>
        ) : (
          <p className="muted">Not logged in. Open the login link the service printed when it started. {NEW_LINK}</p>
        )}
        <SettingsResult message={st.message} of="regenerate" testId="regenerate-result" />
      </section>

      <section tabIndex={-1} aria-label="Local API for bots">
        <h3>Local API for bots</h3>
        <div className="kv">
          <span>REST</span>
          <code data-testid="api-address">{s.api.baseUrl}</code>
          <button className="btn-small" aria-label="Copy REST address" onClick={() => copy(s.api.baseUrl, 'Address')}>
            Copy
          </button>
        </div>
        <div className="kv">
          <span>WebSocket</span>
          <code>{wsUrl()}</code>
        </div>
        <p className="muted small">
          Signed requests: header X-API-KEY, query timestamp and signature (HMAC-SHA256 of the query plus the raw body).
          Reference:{' '}
          <a href={`${s.api.baseUrl}/docs`} target="_blank" rel="noreferrer">
            /docs
          </a>
          .
        </p>
      </section>

      <section tabIndex={-1} aria-label="Bot whitelist" id={WHITELIST_SECTION_ID}>
        <h3>Bot whitelist</h3>
        {st.ipsError ? (
          <p className="error small">{st.ipsError}</p>
        ) : (
          <>
            <textarea
              id={WHITELIST_FIELD_ID}
              aria-label="Whitelisted IPs"
              rows={4}
              value={ipsText}
              onChange={(e) => {
                const text = e.target.value;
                setIpsField((f) => (f === null ? null : editWhitelist(f, text)));
              }}
              spellCheck={false}
            />
            {changedNote && (
              <p className="error small" data-testid="whitelist-changed">
                {changedNote}
              </p>
            )}
            <p className="muted small">One IP per line. Loopback addresses always stay on the list.</p>
            <button
              className="btn-small"
              aria-disabled={st.busy || undefined}
              onClick={() => !st.busy && void saveWhitelist()}
            >
              Save whitelist
            </button>
          </>
        )}
        <SettingsResult message={st.message} of="whitelist" testId="whitelist-result" />
      </section>

      <NoticesSection />

      <section tabIndex={-1} aria-label="Simulator">
        <h3>Simulator</h3>
        {replay && (
          <p className="muted small">
            This venue replays history, there is no simulator: play, pause, speed, step and seek are in the replay
            banner.
          </p>
        )}
        {!replay && st.simError && <p className="error small">{st.simError}</p>}
        {!replay && st.sim && (
          <>
            <div className="kv">
              <span>Seed</span>
              <code data-testid="sim-seed">{st.sim.seed}</code>
            </div>
            <div className="kv">
              <span>Market time</span>
              <code>{fmtDateTime(st.sim.market_time)} UTC</code>
            </div>
            <div className="kv">
              <span>Speed</span>
              <input
                aria-label="Simulator speed"
                className="short"
                value={speed}
                aria-invalid={speedError !== null}
                onChange={(e) => {
                  setSpeed(e.target.value);
                  setSpeedError(null);
                }}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter') return;
                  e.preventDefault();
                  void applySpeed();
                }}
              />
              <button className="btn-small" onClick={() => void applySpeed()}>
                Set
              </button>
              {SPEEDS.map((x) => (
                <button
                  key={x}
                  className={`btn-small ${!st.sim?.fast && st.sim?.speed === x ? 'active' : ''}`}
                  aria-pressed={!st.sim?.fast && st.sim?.speed === x}
                  onClick={() => void applySpeed(x)}
                >
                  {x}x
                </button>
              ))}
            </div>
            {speedError && (
              <p className="error small" role="alert" data-testid="sim-speed-error">
                {speedError}
              </p>
            )}
            <Thinned overload={st.sim.overload} />
            {st.sim.fast && (
              <p className="muted small" data-testid="sim-fast-note">
                Fast mode: the market runs as fast as this computer simulates it, every step simulated; the speed above
                applies once it is off (a speed picked turns it off).
              </p>
            )}
            <div className="kv">
              <button className="btn-small" data-testid="sim-pause" onClick={() => void togglePause()}>
                {st.sim.paused ? '▶ Resume' : '❚❚ Pause'}
              </button>
              <button
                className={`btn-small ${st.sim.fast ? 'active' : ''}`}
                data-testid="sim-fast"
                aria-pressed={st.sim.fast}
                onClick={() => void toggleFast()}
              >
                Fast mode
              </button>
            </div>
          </>
        )}
      </section>

      {session.status === 'ready' && (
        <section tabIndex={-1} aria-label="Position mode">
          <h3>Position mode</h3>
          <div className="seg" role="group" aria-label="Position mode">
            {(['hedge', 'one_way'] as const).map((m) => (
              <button
                key={m}
                className={positionMode === m ? 'active' : ''}
                aria-pressed={positionMode === m}
                disabled={positionMode === undefined}
                aria-disabled={st.busy || undefined}
                onClick={() => !st.busy && positionMode !== m && void st.actions.setPositionMode(m)}
              >
                {m === 'hedge' ? 'Hedge' : 'One-way'}
              </button>
            ))}
          </div>
          <SettingsResult message={st.modeMessage} testId="position-mode-message" />
          <p className="muted small">
            Hedge: a long and a short per pair, each closed on its own. One-way: one net position per pair; a sell
            reduces a long. The mode can only change with no open position and no open order.
          </p>
        </section>
      )}

      <section tabIndex={-1} aria-label="Paper account">
        <h3>Paper account</h3>
        <div className="kv">
          <span>Balance</span>
          <input
            aria-label="Reset balance"
            className="short"
            value={amountText}
            placeholder="USDT"
            aria-invalid={amountProblem !== null}
            aria-describedby={amountProblem !== null ? 'reset-balance-error' : undefined}
            onChange={(e) => {
              setBalance(e.target.value);
              setConfirmReset(false);
            }}
          />
          <span className="muted">USDT</span>
          <button
            ref={resetButton}
            className="btn-small danger"
            disabled={session.status !== 'ready' || !amountOk}
            aria-disabled={st.busy || undefined}
            aria-expanded={confirmReset}
            onClick={() => !st.busy && setConfirmReset(true)}
          >
            Reset account…
          </button>
        </div>
        {confirmReset && amount.kind === 'ok' && amountOk && (
          <ConfirmBar
            testId="reset-confirm"
            text={`Cancel every open order, close every position at the mark price and set the wallet to ${fmtAmount(amount.value)} USDT? This cannot be undone.`}
            action="Reset"
            busy={st.busy}
            onConfirm={() => {
              resetButton.current?.focus();
              void reset();
            }}
            onCancel={() => {
              setConfirmReset(false);
              resetButton.current?.focus();
            }}
          />
        )}
        <SettingsResult message={st.message} of="reset" testId="reset-result" />
        {amountProblem !== null && (
          <p className="error small" id="reset-balance-error" data-testid="reset-balance-error">
            {amountProblem}
          </p>
        )}
        <p className="muted small">
          Cancels every open order, closes every position at the mark price and sets the wallet to this balance
          {depositsText !== '' && balance === null
            ? ` (pre-filled with the account's total deposits, ${fmtAmount(deposits ?? '')} USDT)`
            : ''}
          .
        </p>
      </section>
    </div>
  );
}

/** Where a focused control of Settings is: its section and its name. */
interface Place {
  section: HTMLElement | null;
  name: string;
}

function nameOf(el: Element): string {
  return el.getAttribute('aria-label') ?? el.textContent ?? '';
}

function placeOf(el: HTMLElement): Place {
  return { section: el.closest('section'), name: nameOf(el) };
}

/**
 * Where the focus goes when its control went away under it (Log out, a confirmation's bar
 * answered): that control again once usable, else its section (a focus stop of its own, named by
 * its heading), else (the section gone too) the drawer.
 */
function focusAfter(root: HTMLElement, at: Place): HTMLElement | null {
  const section = at.section?.isConnected ? at.section : null;
  for (const el of section?.querySelectorAll<HTMLElement>(CONTROLS) ?? [])
    if (nameOf(el) === at.name && !(el as HTMLButtonElement).disabled) return el;
  return section?.hasAttribute('tabindex') ? section : root.closest<HTMLElement>('[role="dialog"]');
}
