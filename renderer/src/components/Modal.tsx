// The API management dialogs: a native <dialog> opened modally, so focus stays inside, Escape closes it
// and the page behind is inert; on closing, focus returns to what opened it. While `busy` the dialog
// cannot be dismissed.

import { useEffect, useId, useRef, type ReactElement, type ReactNode } from 'react';
import { Icon } from './Icon';

export function Modal({
  title,
  subtitle,
  onClose,
  children,
  footer,
  testId,
  wide = false,
  busy = false,
}: {
  title: string;
  subtitle?: ReactNode;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  testId: string;
  wide?: boolean;
  busy?: boolean;
}): ReactElement {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    // What opened the dialog gets the focus back when it closes (a keyboard user stays where they were).
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      // Unless it is gone (a card menu closed, or another dialog that is closing too).
      if (opener?.isConnected && !opener.closest('dialog:not([open])')) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal${wide ? ' modal-wide' : ''}`}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <div className="modal-head">
        <div>
          <h2 id={titleId}>{title}</h2>
          {subtitle && <p>{subtitle}</p>}
        </div>
        <button type="button" className="icon-button" onClick={onClose} disabled={busy} aria-label="Close" data-testid="modal-close">
          <Icon name="x" size={18} />
        </button>
      </div>
      <div className="modal-body">{children}</div>
      {footer && <div className="modal-foot">{footer}</div>}
    </dialog>
  );
}
