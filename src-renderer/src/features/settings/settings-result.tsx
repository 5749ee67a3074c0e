// A Settings action's result line ("Whitelist saved: …", "Paper account reset: …", a refusal), in
// the section of the control that was used, where the focus is: a polite live region on the page
// before the result comes (empty, it takes no room), so a screen reader says the result.
import type { SettingsAction, SettingsState } from './settings-store.ts';

export function SettingsResult({
  message,
  of,
  testId,
}: {
  message: SettingsState['message'] | SettingsState['modeMessage'];
  /** Whose result this line shows; none for a section's own message (the position mode's). */
  of?: SettingsAction;
  testId: string;
}) {
  const m = message !== null && (of === undefined || ('of' in message && message.of === of)) ? message : null;
  return (
    <p className={`settings-result ${m?.ok === false ? 'oe-error' : 'ok-text'}`} role="status" data-testid={testId}>
      {m?.text}
    </p>
  );
}
