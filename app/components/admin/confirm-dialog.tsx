import { useId, useRef } from 'react';
import { useFetcher } from 'react-router';

import { SubmitButton } from '~/components/ui/form';

import { DialogButton } from './dialog-buttons';
import { useToastFrom } from './toaster';

/**
 * The admin's one confirmation: a button that opens a modal <dialog> asking first, whose
 * confirm button posts `fields` to `action`. Invoker commands open and close it even before
 * JavaScript loads; with JavaScript the post goes through a fetcher and its answer's toast shows.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  busyLabel,
  dismissLabel = 'Cancelar',
  triggerLabel,
  triggerClassName,
  action,
  fields,
  children,
}: {
  title: string;
  message: React.ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  /** The button that closes without doing anything ('Voltar' where 'Cancelar' would mislead). */
  dismissLabel?: string;
  /** The visible text of the opening button, or an icon with an accessible name (children). */
  triggerLabel: string;
  triggerClassName?: string;
  action?: string;
  fields: Record<string, string>;
  children?: React.ReactNode;
}) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher();
  useToastFrom(fetcher.data);
  const busy = fetcher.state !== 'idle';
  return (
    <>
      <DialogButton
        command="show-modal"
        dialogId={id}
        dialog={dialog}
        className={triggerClassName ?? 'admin-button-danger'}
        aria-label={children ? triggerLabel : undefined}
      >
        {children ?? triggerLabel}
      </DialogButton>
      <dialog
        ref={dialog}
        id={id}
        aria-labelledby={`${id}-title`}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-lg p-0 shadow-xl backdrop:bg-black/50"
      >
        <fetcher.Form
          method="post"
          action={action}
          className="p-5"
          onSubmit={() => dialog.current?.close()}
        >
          <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <div className="mt-2 text-sm text-slate-700">{message}</div>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <DialogButton
              command="close"
              dialogId={id}
              dialog={dialog}
              className="admin-button-secondary"
            >
              {dismissLabel}
            </DialogButton>
            <SubmitButton
              busy={busy}
              busyLabel={busyLabel ?? 'Aguarde...'}
              className="admin-button-danger"
            >
              {confirmLabel}
            </SubmitButton>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}
