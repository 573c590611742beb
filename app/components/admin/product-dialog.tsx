import { useCallback, useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';

import { CloseIcon } from '~/components/ui/icons';

import { ProductForm, type ProductFormData } from './product-form';

// Tailwind's lg: from here the form opens over the list; narrower screens get its own page.
const DESKTOP = '(min-width: 1024px)';

type Opened = {
  serial: number;
  isNew: boolean;
  data: ProductFormData | null;
  /** The product was deleted since the list was shown. */
  missing: boolean;
};

/**
 * The add/edit form in a modal dialog over the list, on desktop. The links stay links: on a
 * phone, with a modifier key or before JavaScript they open the form's own page.
 */
export function useProductDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const loader = useFetcher<ProductFormData | { notFound: true }>();
  const [opened, setOpened] = useState<Opened | null>(null);
  const serial = useRef(0);
  // Whether the load for the open dialog has started: until then the fetcher still holds the
  // previous dialog's data.
  const loading = useRef(false);

  const onLinkClick = (event: React.MouseEvent<HTMLAnchorElement>, isNew: boolean) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    if (!window.matchMedia(DESKTOP).matches) return;
    event.preventDefault();
    serial.current += 1;
    setOpened({ serial: serial.current, isNew, data: null, missing: false });
    loading.current = false;
    void loader.load(event.currentTarget.getAttribute('href')!);
    dialog.current?.showModal();
  };

  // The form keeps the data it opened with: the fetcher reloads after every save (a new
  // product would get a new id and the form would start over).
  useEffect(() => {
    if (loader.state !== 'idle') {
      loading.current = true;
      return;
    }
    const loaded = loader.data;
    if (!loading.current || !loaded) return;
    setOpened((current) =>
      current && !current.data
        ? 'productId' in loaded
          ? { ...current, data: loaded }
          : { ...current, missing: true }
        : current,
    );
  }, [loader.state, loader.data]);

  const close = useCallback(() => dialog.current?.close(), []);

  const element = (
    <dialog
      ref={dialog}
      aria-labelledby="product-dialog-title"
      onClose={() => setOpened(null)}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(48rem,calc(100%-2rem))] rounded-lg p-0 shadow-xl backdrop:bg-black/50"
    >
      <div className="sticky top-0 z-10 flex items-center justify-between border-b border-slate-200 bg-white px-5 py-3">
        <h2 id="product-dialog-title" className="text-lg font-semibold text-slate-900">
          {opened?.isNew === false ? 'Editar Produto' : 'Adicionar Produto'}
        </h2>
        <button
          type="button"
          onClick={close}
          className="rounded p-2 text-slate-600 hover:bg-slate-100"
          aria-label="Fechar"
        >
          <CloseIcon />
        </button>
      </div>
      <div className="p-5">
        {opened?.data ? (
          <ProductForm
            key={opened.serial}
            data={opened.data}
            mode="dialog"
            onSaved={close}
            onCancel={close}
          />
        ) : opened?.missing ? (
          <p role="alert" className="text-sm text-red-800">
            Produto não encontrado. Ele pode ter sido excluído.
          </p>
        ) : opened ? (
          <p role="status" className="text-sm text-slate-600">
            Carregando...
          </p>
        ) : null}
      </div>
    </dialog>
  );

  return { onLinkClick, element };
}
