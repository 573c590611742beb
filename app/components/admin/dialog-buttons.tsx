import type { RefObject } from 'react';

// Invoker commands open and close a <dialog> before JavaScript loads; a browser without them gets
// the same from the click handler once it has.
const supportsInvokers = () =>
  typeof HTMLButtonElement !== 'undefined' && 'commandForElement' in HTMLButtonElement.prototype;

/** A button that opens a modal <dialog> ('show-modal') or closes it without doing anything. */
export function DialogButton({
  command,
  dialogId,
  dialog,
  className,
  children,
  ...rest
}: {
  command: 'show-modal' | 'close';
  dialogId: string;
  dialog: RefObject<HTMLDialogElement | null>;
  className: string;
  'aria-label'?: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      commandfor={dialogId}
      command={command}
      onClick={() => {
        if (supportsInvokers()) return;
        if (command === 'close') dialog.current?.close();
        else dialog.current?.showModal();
      }}
      className={className}
      aria-label={rest['aria-label']}
    >
      {children}
    </button>
  );
}
