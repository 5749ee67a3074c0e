// A right-hand drawer over the screen (settings, bot orders); Esc or the backdrop closes it.
import { useEffect, useRef, type ReactNode } from 'react';

export function Drawer(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus();
  }, []);
  return (
    <div className="drawer-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        className={props.wide ? 'drawer wide' : 'drawer'}
        role="dialog"
        aria-label={props.title}
        tabIndex={-1}
        ref={panel}
        data-testid={props.testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          }
        }}
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
