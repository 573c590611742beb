import { useEffect, useId, useRef } from 'react';
import { useFetcher } from 'react-router';

import { RATING_CHOICES, reviewFormSchema } from '~/modules/reviews';

import { useToastFrom } from './toaster';
import { useFormCheck } from './use-form-check';

const supportsInvokers = () =>
  typeof HTMLButtonElement !== 'undefined' && 'commandForElement' in HTMLButtonElement.prototype;

type Reply = { toast?: { kind: string }; fieldErrors?: Record<string, string> } | undefined;

/**
 * 'Adicionar Avaliação': a modal form (Produto, Nome do Cliente, Avaliação, Comentário). The
 * shared schema checks it first in the browser; it stays open with its values until saved.
 */
export function ReviewFormDialog({
  id,
  products,
}: {
  id: string;
  products: { id: string; name: string }[];
}) {
  const dialogId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const fetcher = useFetcher<Reply>();
  useToastFrom(fetcher.data);
  const { errors: clientErrors, check } = useFormCheck(reviewFormSchema);
  const errors = clientErrors ?? fetcher.data?.fieldErrors ?? {};
  const busy = fetcher.state !== 'idle';

  // Saved: the dialog closes as soon as the answer arrives (the list reloads behind it).
  useEffect(() => {
    if (fetcher.data?.toast?.kind === 'success') {
      dialog.current?.close();
      form.current?.reset();
    }
  }, [fetcher.data]);

  const field = (name: string) => `${dialogId}-${name}`;
  const errorFor = (name: string) =>
    errors[name] ? (
      <p id={`${field(name)}-error`} className="mt-1 text-sm text-red-700">
        {errors[name]}
      </p>
    ) : null;
  const invalid = (name: string) =>
    errors[name]
      ? { 'aria-invalid': true as const, 'aria-describedby': `${field(name)}-error` }
      : {};
  const close = () => {
    if (!supportsInvokers()) dialog.current?.close();
  };

  return (
    <>
      <button
        type="button"
        commandfor={dialogId}
        command="show-modal"
        onClick={() => {
          if (!supportsInvokers()) dialog.current?.showModal();
        }}
        className="admin-button-primary"
      >
        Adicionar Avaliação
      </button>
      <dialog
        ref={dialog}
        id={dialogId}
        aria-labelledby={`${dialogId}-title`}
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
            Adicionar Avaliação
          </h2>
          <input type="hidden" name="intent" value="create" />
          <input type="hidden" name="id" value={id} />
          {errors.id ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {errors.id}
            </p>
          ) : null}
          {products.length === 0 ? (
            <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Cadastre um produto antes de adicionar avaliações.
            </p>
          ) : null}
          <div>
            <label htmlFor={field('productId')} className="admin-label">
              Produto
            </label>
            <select
              id={field('productId')}
              name="productId"
              required
              defaultValue=""
              className="admin-input"
              {...invalid('productId')}
            >
              <option value="">Selecione um produto</option>
              {products.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.name}
                </option>
              ))}
            </select>
            {errorFor('productId')}
          </div>
          <div>
            <label htmlFor={field('customerName')} className="admin-label">
              Nome do Cliente
            </label>
            <input
              id={field('customerName')}
              name="customerName"
              required
              maxLength={100}
              autoComplete="off"
              className="admin-input"
              {...invalid('customerName')}
            />
            {errorFor('customerName')}
          </div>
          <div>
            <label htmlFor={field('rating')} className="admin-label">
              Avaliação
            </label>
            <select
              id={field('rating')}
              name="rating"
              defaultValue="5"
              className="admin-input"
              {...invalid('rating')}
            >
              {RATING_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
            {errorFor('rating')}
          </div>
          <div>
            <label htmlFor={field('comment')} className="admin-label">
              Comentário (Opcional)
            </label>
            <textarea
              id={field('comment')}
              name="comment"
              rows={4}
              maxLength={2000}
              className="admin-input"
              {...invalid('comment')}
            />
            {errorFor('comment')}
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <button
              type="button"
              commandfor={dialogId}
              command="close"
              onClick={close}
              className="admin-button-secondary"
            >
              Cancelar
            </button>
            <button
              type="submit"
              className="admin-button-primary"
              disabled={busy || products.length === 0}
            >
              {busy ? 'Salvando...' : 'Adicionar'}
            </button>
          </div>
        </fetcher.Form>
      </dialog>
    </>
  );
}
