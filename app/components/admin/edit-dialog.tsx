import { useEffect } from 'react';

import { CloseIcon } from '~/components/ui/icons';

const WIDTH = {
  form: 'w-[min(32rem,calc(100%-2rem))] max-h-[calc(100dvh-2rem)]',
  product: 'w-[min(48rem,calc(100%-2rem))] max-h-[calc(100dvh-2rem)]',
  order: 'w-[min(56rem,calc(100%-2rem))] max-h-[90dvh] bg-slate-100',
} as const;

/**
 * The one modal dialog that edits something over its list (a category, a review, a product, an
 * order). The browser's <dialog> gives the keyboard and focus behaviour: focus moves in on
 * opening, Esc closes, focus returns to what opened it. `close` adds an X button: in a sticky
 * bar with the title, or (without a title) in the corner over content that names the dialog.
 */
export function EditDialog({
  dialogRef,
  id,
  labelledBy,
  width,
  close,
  openOnMount = false,
  onClose,
  children,
}: {
  dialogRef: React.RefObject<HTMLDialogElement | null>;
  id?: string;
  /** The id of the heading that names the dialog. */
  labelledBy: string;
  width: keyof typeof WIDTH;
  close?: { label: string; title?: React.ReactNode };
  /** Shown as soon as it is on the page (a route over the list), not by a button. */
  openOnMount?: boolean;
  onClose: () => void;
  children: React.ReactNode;
}) {
  useEffect(() => {
    const element = dialogRef.current;
    if (openOnMount && element && !element.open) element.showModal();
  }, [dialogRef, openOnMount]);

  const closeButton = close ? (
    <button
      type="button"
      onClick={() => dialogRef.current?.close()}
      className={
        close.title
          ? 'rounded p-2 text-slate-600 hover:bg-slate-100'
          : 'absolute top-3 right-3 rounded p-2 text-slate-700 hover:bg-slate-200'
      }
      aria-label={close.label}
    >
      <CloseIcon />
    </button>
  ) : null;

  return (
    <dialog
      ref={dialogRef}
      id={id}
      aria-labelledby={labelledBy}
      onClose={(event) => {
        // React passes a nested dialog's close (a delete confirmation) up the tree: only this
        // dialog's own closing counts.
        if (event.target === event.currentTarget) onClose();
      }}
      className={`m-auto ${WIDTH[width]} rounded-lg p-0 shadow-xl backdrop:bg-black/50`}
    >
      {close?.title ? (
        <>
          <div className="sticky top-0 z-10 flex items-center justify-between border-b border-slate-200 bg-white px-5 py-3">
            <h2 id={labelledBy} className="text-lg font-semibold text-slate-900">
              {close.title}
            </h2>
            {closeButton}
          </div>
          <div className="p-5">{children}</div>
        </>
      ) : close ? (
        <div className="relative p-5">
          {closeButton}
          {children}
        </div>
      ) : (
        children
      )}
    </dialog>
  );
}
