// What a screen without a login shows where trading would be: how to log in, and why the last
// attempt failed.
import { useServices, useSel } from '../../lib/use-services.ts';

/** A link logs in once: where the next one comes from. */
export const NEW_LINK = 'A link works once: restarting the service (Ctrl-C, then start it again) prints a new one.';

export function LoginHint() {
  const s = useServices();
  const error = useSel(s.session, (x) => x.error);
  return (
    <div className="login-hint" data-testid="login-hint">
      {error && <p className="down">{error}</p>}
      <b>View only.</b> To trade, open the login link the service printed when it started (
      <code>{window.location.origin}/#token=…</code>), or use the desktop app. {NEW_LINK}
    </div>
  );
}
