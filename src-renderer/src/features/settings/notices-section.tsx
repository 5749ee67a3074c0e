// Settings' "Desktop notifications": which toasts are also shown by the system while the window is
// in the background (toasts/toast-notices.ts), and where the browser's permission stands, with the
// button that asks for it while it is undecided.
import { useState } from 'react';
import { useServices, useSel } from '../../lib/use-services.ts';
import { NOTICE_KINDS, type NoticeKind } from '../toasts/notice-prefs.ts';
import { askNotifications, noticePermission } from '../toasts/toast-notices.ts';

const NAMES: Record<NoticeKind, string> = {
  alert: 'Price alerts',
  fill: 'Fills of my orders',
  margin: 'Margin calls (a margin ratio of 80%)',
  liquidation: 'Liquidations',
};

const STANDING: Record<ReturnType<typeof noticePermission>, string> = {
  granted: 'Allowed.',
  default: 'Not allowed yet: the browser asks when you press Allow (or set your first alert).',
  denied: 'Blocked by the browser: allow notifications for this address in its site settings.',
  unsupported: 'This browser shows no notifications: the toasts alone tell.',
};

export function NoticesSection() {
  const s = useServices();
  const prefs = useSel(s.notices, (x) => x.prefs);
  const [permission, setPermission] = useState(noticePermission);
  return (
    <section data-testid="notices-settings">
      <h3>Desktop notifications</h3>
      <p className="muted small">
        While the window is minimised, hidden or behind another one, these are also shown by the system, in the toast’s
        words.
      </p>
      {NOTICE_KINDS.map((k) => (
        <label key={k} className="inline check">
          <input
            type="checkbox"
            checked={prefs[k]}
            onChange={(e) => s.notices.getState().actions.set(k, e.target.checked)}
          />
          <span>{NAMES[k]}</span>
        </label>
      ))}
      <p className="muted small" data-testid="notices-permission">
        {STANDING[permission]}{' '}
        {permission === 'default' && (
          <button
            className="btn-small"
            onClick={() => void askNotifications().then(() => setPermission(noticePermission()))}
          >
            Allow notifications
          </button>
        )}
      </p>
    </section>
  );
}
