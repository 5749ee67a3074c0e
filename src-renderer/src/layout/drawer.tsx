// A right-hand drawer over the screen (settings, bot orders, data, sweeps, replay): a modal
// dialog (use-modal.ts); Esc or the backdrop closes it (Esc in a field edited since it took the focus
// first leaves the field, the text kept). Its title bar on top and, when its content gives one
// (DrawerFooter), a footer of actions at the bottom stay in view; what is between them scrolls.
import { createContext, useContext, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useModal } from './use-modal.ts';

/** The drawer's footer, where DrawerFooter puts its content (null until it is mounted). */
const FooterSlot = createContext<HTMLElement | null>(null);

export function Drawer(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  testId?: string;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const [footer, setFooter] = useState<HTMLElement | null>(null);
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
        <div className="drawer-body">
          <FooterSlot.Provider value={footer}>{props.children}</FooterSlot.Provider>
        </div>
        <footer className="drawer-foot" ref={setFooter} />
      </div>
    </div>
  );
}

/**
 * A drawer's final actions (a form's Cancel and submit, the answer to them): shown in the
 * drawer's footer, under its scrolling body, so they stay in view however long the body is. A
 * submit button there names its form (`form="..."`): it is outside the form's element.
 */
export function DrawerFooter({ children }: { children: ReactNode }) {
  const footer = useContext(FooterSlot);
  return footer ? createPortal(children, footer) : null;
}
