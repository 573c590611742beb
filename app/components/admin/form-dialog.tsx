import { useId, useRef } from 'react';
import { useFetcher } from 'react-router';
import type { z } from 'zod';

import { ADMIN_FORM } from './form-look';
import { ErrorSummary, SubmitButton } from '~/components/ui/form';

import { DialogButton } from './dialog-buttons';
import { EditDialog } from './edit-dialog';
import { useToastFrom } from './toaster';
import { useEachAnswer } from '~/lib/use-each-answer';
import { useFormCheck } from '~/lib/use-form-check';

type Reply = { toast?: { kind: string }; fieldErrors?: Record<string, string> } | undefined;

/**
 * A button opening a modal form (adding or editing one thing). The shared schema checks the form
 * first in the browser; the dialog stays open with what was typed until the server has saved it,
 * then closes while the list reloads behind it.
 */
export function FormDialog({
  schema,
  title,
  openLabel,
  openClassName,
  openAriaLabel,
  submitLabel,
  hidden,
  resetOnClose,
  submitDisabled = false,
  repeatable,
  children,
}: {
  schema: z.ZodType;
  title: string;
  openLabel: string;
  openClassName: string;
  openAriaLabel?: string;
  submitLabel: string;
  /** The hidden fields: the intent and the id of what is saved. */
  hidden: Record<string, string>;
  /**
   * Editing: closing without saving puts the saved values back. Adding: what was typed stays
   * for the next opening, until it is saved.
   */
  resetOnClose: boolean;
  submitDisabled?: boolean;
  /** Fields sent once per chosen item (a multi-select), as the server reads them. */
  repeatable?: readonly string[];
  children: (fields: { idPrefix: string; errors: Record<string, string> }) => React.ReactNode;
}) {
  const dialogId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const fetcher = useFetcher<Reply>();
  useToastFrom(fetcher.data);
  const {
    errors: clientErrors,
    setErrors: setClientErrors,
    check,
  } = useFormCheck(schema, { repeatable });
  const errors = clientErrors ?? fetcher.data?.fieldErrors ?? {};
  const busy = fetcher.state !== 'idle';

  useEachAnswer(fetcher.data, (answer) => {
    if (answer.toast?.kind !== 'success') return;
    dialog.current?.close();
    if (!resetOnClose) form.current?.reset();
  });

  return (
    <>
      <DialogButton
        command="show-modal"
        dialogId={dialogId}
        dialog={dialog}
        className={openClassName}
        aria-label={openAriaLabel}
      >
        {openLabel}
      </DialogButton>
      <EditDialog
        dialogRef={dialog}
        id={dialogId}
        labelledBy={`${dialogId}-title`}
        width="form"
        onClose={() => {
          if (resetOnClose) {
            form.current?.reset();
            setClientErrors(null);
          }
        }}
      >
        <fetcher.Form
          ref={form}
          method="post"
          noValidate
          className="space-y-4 p-5"
          onSubmit={check}
        >
          <h2 id={`${dialogId}-title`} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {errors.id ? <ErrorSummary look={ADMIN_FORM} message={errors.id} /> : null}
          {children({ idPrefix: dialogId, errors })}
          <div className="flex flex-wrap justify-end gap-2">
            <DialogButton
              command="close"
              dialogId={dialogId}
              dialog={dialog}
              className="admin-button-secondary"
            >
              Cancelar
            </DialogButton>
            <SubmitButton
              busy={busy}
              busyLabel="Salvando..."
              disabled={submitDisabled}
              className="admin-button-primary"
            >
              {submitLabel}
            </SubmitButton>
          </div>
        </fetcher.Form>
      </EditDialog>
    </>
  );
}
