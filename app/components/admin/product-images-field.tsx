import { useEffect, useId, useRef, useState } from 'react';

import { ADMIN_FORM } from './form-look';
import { FormField } from '~/components/ui/form';
import { isOwnImage } from '~/lib/admin-path';
import { isAllowedImageUrl, splitImageUrls } from '~/modules/catalog/index.admin';
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_UPLOAD } from '~/modules/media';

import { ProductThumb } from './product-list-parts';

const NO_PREVIEW = (
  <span className="flex h-16 w-16 shrink-0 items-center justify-center rounded border border-dashed border-slate-300 p-1 text-center text-[10px] leading-tight text-slate-600">
    Sem pré-visualização
  </span>
);

type Pending = { key: string; file: File; thumbnail: string | null };

// The page's Content-Security-Policy allows data: images but not blob:, so a chosen file's
// preview is a small data: URL drawn from it (none when the browser cannot read the file).
async function thumbnailOf(file: File): Promise<string | null> {
  try {
    const bitmap = await createImageBitmap(file, { resizeWidth: 128, resizeQuality: 'medium' });
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
    bitmap.close();
    return canvas.toDataURL('image/webp');
  } catch {
    return null;
  }
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const SMALL_BUTTON =
  'rounded border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40';

/**
 * The product's images: each shown as a picture (the panel loads only the store's own; another
 * site's is shown by its address), in order, with buttons to reorder and remove them (the first is
 * the main image); the list travels in a hidden field. Below, a box for addresses of pictures on
 * other sites and a file input: both join the end of the list when the form is saved.
 */
export function ProductImagesField({
  idPrefix,
  initialUrls,
  initialNewUrls,
  urlsError,
  newUrlsError,
  uploadsError,
}: {
  idPrefix: string;
  initialUrls: string;
  initialNewUrls: string;
  urlsError?: string;
  newUrlsError?: string;
  uploadsError?: string;
}) {
  const [text, setText] = useState(initialUrls);
  const urls = [...new Set(splitImageUrls(text))];
  const [newText, setNewText] = useState(initialNewUrls);
  const typed = [...new Set(splitImageUrls(newText))].filter((url) => !urls.includes(url));
  const [announcement, setAnnouncement] = useState('');
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  // The button to focus once the list has been redrawn after a move or a removal.
  const focusNext = useRef<string | null>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const listId = useId();

  useEffect(() => {
    if (focusNext.current) buttons.current.get(focusNext.current)?.focus();
    focusNext.current = null;
  }, [text]);

  const setUrls = (next: string[]) => setText(next.join('\n'));

  const move = (index: number, to: number) => {
    const next = [...urls];
    const [url] = next.splice(index, 1);
    next.splice(to, 0, url!);
    setUrls(next);
    setAnnouncement(
      `Imagem movida para a posição ${to + 1} de ${next.length}.${to === 0 ? ' Agora é a imagem principal.' : ''}`,
    );
    // Focus stays on the moved image; at an end, on the button that still works.
    const direction = to < index ? 'up' : 'down';
    const atEnd = direction === 'up' ? to === 0 : to === next.length - 1;
    focusNext.current = `${atEnd ? (direction === 'up' ? 'down' : 'up') : direction}-${to}`;
  };

  const remove = (index: number) => {
    const next = urls.filter((_, at) => at !== index);
    setUrls(next);
    setAnnouncement(`Imagem ${index + 1} removida.`);
    if (next.length > 0) focusNext.current = `remove-${Math.min(index, next.length - 1)}`;
    else document.getElementById(`${idPrefix}-newImageUrls`)?.focus();
  };

  const choose = async (files: File[]) => {
    const chosen = files.map((file, index) => ({
      key: `${file.name}-${file.size}-${file.lastModified}-${index}`,
      file,
      thumbnail: null,
    }));
    setPending(chosen);
    const thumbnails = await Promise.all(chosen.map((item) => thumbnailOf(item.file)));
    // By key: files may have been taken out (or others chosen) meanwhile.
    setPending((current) =>
      current.map((item) => {
        const at = chosen.findIndex((candidate) => candidate.key === item.key);
        return at >= 0 ? { ...item, thumbnail: thumbnails[at] ?? null } : item;
      }),
    );
  };

  const unchoose = (key: string) => {
    const input = fileInput.current;
    if (!input) return;
    const kept = pending.filter((item) => item.key !== key);
    const transfer = new DataTransfer();
    for (const item of kept) transfer.items.add(item.file);
    input.files = transfer.files;
    setPending(kept);
    setAnnouncement('Arquivo retirado do envio.');
    input.focus();
  };

  return (
    <fieldset
      className="space-y-4"
      aria-describedby={urlsError ? `${idPrefix}-imageUrls-error` : undefined}
    >
      <legend className="text-sm font-semibold text-slate-900">Imagens</legend>
      <input type="hidden" name="imageUrls" value={urls.join('\n')} />
      {urlsError ? (
        <p id={`${idPrefix}-imageUrls-error`} className={ADMIN_FORM.error}>
          {urlsError}
        </p>
      ) : null}
      {urls.length === 0 ? (
        <p className="text-sm text-slate-600">
          Nenhuma imagem ainda: envie fotos do aparelho ou adicione o endereço de uma imagem.
        </p>
      ) : (
        <ol id={listId} aria-label="Ordem das imagens" className="space-y-2">
          {urls.map((url, index) => (
            <li
              key={url}
              className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-2"
            >
              <ProductThumb
                src={url}
                size={64}
                alt={`Pré-visualização da imagem ${index + 1}`}
                fallback={NO_PREVIEW}
              />
              <div className="min-w-0 flex-1 basis-40">
                <p className="text-xs font-semibold text-slate-800">
                  {index === 0 ? 'Imagem principal' : `Imagem ${index + 1}`}
                </p>
                <ImageSource url={url} />
              </div>
              <div className="flex gap-1">
                <button
                  type="button"
                  ref={(button) => {
                    if (button) buttons.current.set(`up-${index}`, button);
                  }}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1)}
                  className={SMALL_BUTTON}
                >
                  Subir<span className="sr-only"> a imagem {index + 1}</span>
                </button>
                <button
                  type="button"
                  ref={(button) => {
                    if (button) buttons.current.set(`down-${index}`, button);
                  }}
                  disabled={index === urls.length - 1}
                  onClick={() => move(index, index + 1)}
                  className={SMALL_BUTTON}
                >
                  Descer<span className="sr-only"> a imagem {index + 1}</span>
                </button>
                <button
                  type="button"
                  ref={(button) => {
                    if (button) buttons.current.set(`remove-${index}`, button);
                  }}
                  onClick={() => remove(index)}
                  className={SMALL_BUTTON}
                >
                  Remover<span className="sr-only"> a imagem {index + 1}</span>
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}

      <div>
        <FormField
          look={ADMIN_FORM}
          idPrefix={idPrefix}
          name="newImageUrls"
          label="Adicionar imagens por endereço"
          hint="Endereços (https://…) de imagens em outros sites, separados por vírgula ou um por linha. Entram depois das imagens acima quando você salvar."
          hintFirst
          error={newUrlsError}
        >
          {(control) => (
            <textarea
              {...control}
              rows={2}
              value={newText}
              onChange={(event) => setNewText(event.target.value)}
              className="admin-input font-mono text-xs"
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
            />
          )}
        </FormField>
        {typed.length > 0 ? (
          <ul aria-label="Imagens a adicionar" className="mt-2 space-y-2">
            {typed.map((url) => (
              <li
                key={url}
                className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-2"
              >
                <ProductThumb src={url} size={64} alt="Pré-visualização" fallback={NO_PREVIEW} />
                <div className="min-w-0 flex-1 basis-40">
                  <ImageSource url={url} />
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </div>

      <div>
        <FormField
          look={ADMIN_FORM}
          idPrefix={idPrefix}
          name="uploads"
          label="Enviar imagens do aparelho"
          hint={
            <>
              JPG, PNG, WebP ou GIF, até {formatSize(MAX_IMAGE_BYTES)} cada e{' '}
              {MAX_IMAGES_PER_UPLOAD} por vez. Entram depois das imagens acima quando você salvar.
            </>
          }
          hintFirst
          error={uploadsError}
        >
          {(control) => (
            <input
              {...control}
              ref={fileInput}
              type="file"
              accept="image/*"
              multiple
              onChange={(event) => void choose(Array.from(event.currentTarget.files ?? []))}
              className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-100"
            />
          )}
        </FormField>
        {pending.length > 0 ? (
          <ul aria-label="Arquivos a enviar" className="mt-2 space-y-2">
            {pending.map((item) => (
              <li
                key={item.key}
                className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 bg-slate-50 p-2"
              >
                {item.thumbnail ? (
                  <img
                    src={item.thumbnail}
                    alt={`Pré-visualização de ${item.file.name}`}
                    width={64}
                    height={64}
                    className="h-16 w-16 shrink-0 rounded border border-slate-200 object-cover"
                  />
                ) : (
                  NO_PREVIEW
                )}
                <p className="min-w-0 flex-1 basis-40 text-xs break-all text-slate-700">
                  {item.file.name} · {formatSize(item.file.size)}
                  {item.file.size > MAX_IMAGE_BYTES ? (
                    <span className="block font-semibold text-red-700">
                      Maior que {formatSize(MAX_IMAGE_BYTES)}
                    </span>
                  ) : null}
                </p>
                <button type="button" onClick={() => unchoose(item.key)} className={SMALL_BUTTON}>
                  Retirar<span className="sr-only"> {item.file.name}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}

/**
 * Where a picture comes from, under its preview: the address of another site's (a link, since the
 * panel does not load it), none for the store's own (an upload's internal path means nothing to a
 * merchant), and a warning for an address no product may show.
 */
function ImageSource({ url }: { url: string }) {
  if (!isAllowedImageUrl(url)) {
    return (
      <>
        <p className="text-xs break-all text-slate-600">{url}</p>
        <p className="text-xs font-semibold text-red-700">Endereço inválido</p>
      </>
    );
  }
  if (isOwnImage(url)) return null;
  return (
    <p className="text-xs break-all text-slate-600">
      <a href={url} target="_blank" rel="noreferrer" className="underline">
        {url}
        <span className="sr-only"> (abre em nova aba)</span>
      </a>
    </p>
  );
}
