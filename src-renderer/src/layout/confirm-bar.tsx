// An inline "are you sure" for a bulk action (close every position, cancel every open order):
// it names what will happen and waits for a second, explicit choice. Keyboard: the focus lands
// on the dismiss button (so a repeated Enter does not confirm), Tab reaches the action, Esc cancels
// without reaching the global shortcuts (which would clear the order form).
import { useEffect, useRef } from 'react';
import './confirm-bar.css';

export interface ConfirmBarProps {
  /** The question: "Close 3 positions at market?" */
  text: string;
  /** The action button's label: "Close 3 positions". */
  action: string;
  /** The button that backs out (default "Cancel"; "Keep orders" where Cancel would be ambiguous). */
  dismiss?: string;
  busy?: boolean;
  testId: string;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmBar({
  text,
  action,
  dismiss = 'Cancel',
  busy = false,
  testId,
  onConfirm,
  onCancel,
}: ConfirmBarProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      className="confirm-bar"
      role="group"
      aria-label={text}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        onCancel();
      }}
    >
      <span>{text}</span>
      <button ref={cancel} type="button" className="btn-small" onClick={onCancel}>
        {dismiss}
      </button>
      <button type="button" className="btn-small danger" disabled={busy} onClick={onConfirm}>
        {action}
      </button>
    </div>
  );
}
