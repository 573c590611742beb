import { useCallback, useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';

import { EditDialog } from './edit-dialog';
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
    <EditDialog
      dialogRef={dialog}
      labelledBy="product-dialog-title"
      width="product"
      close={{
        label: 'Fechar',
        title: opened?.isNew === false ? 'Editar produto' : 'Adicionar produto',
      }}
      onClose={() => setOpened(null)}
    >
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
    </EditDialog>
  );

  return { onLinkClick, element };
}
