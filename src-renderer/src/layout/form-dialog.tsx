// A small modal form over the screen (TP/SL, Adjust margin, Modify order): a veil that closes it
// on a click outside the box, and the box as a modal dialog (use-modal.ts: the focus starts in
// `initial`, Tab and Shift+Tab cycle inside, Esc closes it, and the focus goes back to what had
// it, or to `opener` when that is gone). Its keys: none pressed in it reaches the global
// shortcuts but `?`, help over the dialog (the caller also registers it as the workspace's
// overlay, so the others are inert with the focus anywhere), and Enter in a text field submits; buttons keep their own Enter. Below the
// caller's fields: the error, when there is one, and Cancel beside the submit button.
import { useRef, type ReactNode, type RefObject } from 'react';
import { useModal } from './use-modal.ts';

export function FormDialog(props: {
  label: string;
  onClose: () => void;
  onSubmit: () => void;
  initial?: RefObject<HTMLElement | null>;
  opener?: RefObject<HTMLElement | null>;
  testId?: string;
  /** Shown as an alert above the buttons while not null or empty. */
  error: string | null;
  submitLabel: string;
  submitDisabled: boolean;
  children: ReactNode;
}) {
  const { label, onClose, onSubmit, initial, opener, testId, error, submitLabel, submitDisabled, children } = props;
  const box = useRef<HTMLDivElement>(null);
  const modalKeys = useModal(box, onClose, initial, opener);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={box}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
        data-testid={testId}
        onKeyDown={(e) => {
          if (e.key !== '?') e.stopPropagation();
          if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
            e.preventDefault();
            onSubmit();
          } else modalKeys(e);
        }}
      >
        {children}
        {error ? (
          <p className="oe-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={submitDisabled} onClick={onSubmit}>
            {submitLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
