// A right-hand drawer over the screen (settings, bot orders, data, sweeps, replay): a modal
// dialog (use-modal.ts); Esc or the backdrop closes it (Esc in a field edited since it took the focus
// first leaves the field, the text kept).
import { useRef, type ReactNode } from 'react';
import { useModal } from './use-modal.ts';

export function Drawer(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const keys = useModal(panel, props.onClose, undefined, undefined, { keepEdits: true });
  return (
    <div className="drawer-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        className={props.wide ? 'drawer wide' : 'drawer'}
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
        tabIndex={-1}
        ref={panel}
        data-testid={props.testId}
        onKeyDown={keys}
      >
        <header className="drawer-head">
          <h2>{props.title}</h2>
          <button className="icon-button" aria-label="Close" onClick={props.onClose}>
            ✕
          </button>
        </header>
        <div className="drawer-body">{props.children}</div>
      </div>
    </div>
  );
}
