import { useEffect, useId, useRef } from 'react';
import { useFetcher } from 'react-router';

import { CATEGORY_DESCRIPTION_MAX, CATEGORY_NAME_MAX, categoryFormSchema } from '~/modules/catalog';

import { useToastFrom } from './toaster';
import { useFormCheck } from './use-form-check';

const supportsInvokers = () =>
  typeof HTMLButtonElement !== 'undefined' && 'commandForElement' in HTMLButtonElement.prototype;

type Reply = { toast?: { kind: string }; fieldErrors?: Record<string, string> } | undefined;

/**
 * 'Adicionar Categoria' or 'Editar': a button opening a modal form. The shared schema checks it
 * first in the browser; the dialog stays open with its values until the server has saved it.
 */
export function CategoryFormDialog(
  props:
    | { mode: 'create'; id: string }
    | { mode: 'edit'; id: string; name: string; description: string | null },
) {
  const editing = props.mode === 'edit';
  const dialogId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const fetcher = useFetcher<Reply>();
  useToastFrom(fetcher.data);
  const {
    errors: clientErrors,
    setErrors: setClientErrors,
    check,
  } = useFormCheck(categoryFormSchema);
  const errors = clientErrors ?? fetcher.data?.fieldErrors ?? {};
  const busy = fetcher.state !== 'idle';

  // Saved: the dialog closes as soon as the answer arrives (the list reloads behind it).
  useEffect(() => {
    if (fetcher.data?.toast?.kind === 'success') {
      dialog.current?.close();
      if (!editing) form.current?.reset();
    }
  }, [fetcher.data, editing]);

  const title = editing ? 'Editar Categoria' : 'Adicionar Categoria';
  const field = (name: string) => `${dialogId}-${name}`;
  const describedBy = (name: string) => (errors[name] ? `${field(name)}-error` : undefined);

  return (
    <>
      <button
        type="button"
        commandfor={dialogId}
        command="show-modal"
        onClick={() => {
          if (!supportsInvokers()) dialog.current?.showModal();
        }}
        className={editing ? 'admin-button-secondary' : 'admin-button-primary'}
        aria-label={editing ? `Editar categoria ${props.name}` : undefined}
      >
        {editing ? 'Editar' : 'Adicionar Categoria'}
      </button>
      <dialog
        ref={dialog}
        id={dialogId}
        aria-labelledby={`${dialogId}-title`}
        onClose={() => {
          // A closed edit goes back to the saved values; an unsaved new one keeps its text.
          if (editing) {
            form.current?.reset();
            setClientErrors(null);
          }
        }}
        className="m-auto max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100%-2rem))] rounded-lg p-0 shadow-xl backdrop:bg-black/50"
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
          <input type="hidden" name="intent" value={editing ? 'update' : 'create'} />
          <input type="hidden" name="id" value={props.id} />
          {errors.id ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {errors.id}
            </p>
          ) : null}
          <div>
            <label htmlFor={field('name')} className="admin-label">
              Nome
            </label>
            <input
              id={field('name')}
              name="name"
              required
              maxLength={CATEGORY_NAME_MAX}
              defaultValue={editing ? props.name : ''}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={describedBy('name')}
              className="admin-input"
            />
            {errors.name ? (
              <p id={`${field('name')}-error`} className="mt-1 text-sm text-red-700">
                {errors.name}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor={field('description')} className="admin-label">
              Descrição (opcional)
            </label>
            <textarea
              id={field('description')}
              name="description"
              rows={3}
              maxLength={CATEGORY_DESCRIPTION_MAX}
              defaultValue={editing ? (props.description ?? '') : ''}
              aria-invalid={errors.description ? true : undefined}
              aria-describedby={describedBy('description')}
              className="admin-input"
            />
            {errors.description ? (
              <p id={`${field('description')}-error`} className="mt-1 text-sm text-red-700">
                {errors.description}
              </p>
            ) : null}
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <button
              type="button"
              commandfor={dialogId}
              command="close"
              onClick={() => {
                if (!supportsInvokers()) dialog.current?.close();
              }}
              className="admin-button-secondary"
            >
              Cancelar
            </button>
            <button type="submit" className="admin-button-primary" disabled={busy}>
              {busy ? 'Salvando...' : 'Salvar'}
            </button>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}
