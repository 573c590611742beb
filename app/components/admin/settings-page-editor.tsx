import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';

import type { ContentPageSlug, PagePreviewReply } from '~/modules/content';
import type { FieldSpec } from '~/modules/settings/index.admin';

import { SettingsField } from './settings-field';
import { useStorefrontUrl } from './storefront-url';

const PREVIEW_DELAY_MS = 500;

/**
 * A content page's Markdown with a preview rendered by the server, exactly as the storefront
 * renders it, from the form's unsaved values (an empty text previews the built-in default).
 */
export function SettingsPageEditor({
  spec,
  slug,
  value,
  error,
  form,
}: {
  spec: FieldSpec;
  slug: ContentPageSlug;
  value: string;
  error?: string;
  form: React.RefObject<HTMLFormElement | null>;
}) {
  const fetcher = useFetcher<PagePreviewReply>({ key: `settings-page-preview-${slug}` });
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const previewId = `page-preview-${slug}`;
  const storefrontUrl = useStorefrontUrl();

  const refresh = () => {
    if (!form.current) return;
    const body = new FormData(form.current);
    body.set('page', slug);
    void fetcher.submit(body, {
      method: 'post',
      action: '/admin/settings/preview',
      encType: 'multipart/form-data',
      // A preview changes nothing: no page data needs reloading after it.
      defaultShouldRevalidate: false,
    });
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  const reply = fetcher.data;
  const loading = fetcher.state !== 'idle';
  return (
    <div
      className="rounded-lg border border-slate-200 p-3 sm:p-4"
      onInput={() => {
        if (!open) return;
        clearTimeout(timer.current);
        timer.current = setTimeout(refresh, PREVIEW_DELAY_MS);
      }}
    >
      <SettingsField spec={spec} value={value} error={error} />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <button
          type="button"
          className="admin-button-secondary"
          aria-expanded={open}
          aria-controls={previewId}
          onClick={() => {
            if (!open) refresh();
            setOpen(!open);
          }}
        >
          {open ? 'Ocultar prévia' : 'Ver prévia'}
        </button>
        <a
          href={storefrontUrl(`/${slug}`)}
          target="_blank"
          rel="noreferrer"
          className="text-sm text-blue-700 underline"
        >
          Abrir a página na loja<span className="sr-only"> (em nova aba)</span>
        </a>
      </div>
      <section
        id={previewId}
        hidden={!open}
        aria-label={`Prévia: ${spec.label}`}
        aria-busy={loading}
        className="mt-3 rounded-md border border-dashed border-slate-300 bg-page p-3 text-ink sm:p-4"
      >
        <p className="mb-2 text-xs text-slate-600" role="status">
          {loading
            ? 'Atualizando a prévia...'
            : reply?.ok && reply.usesDefault
              ? 'Campo em branco: a loja mostra o texto padrão abaixo, montado com as outras configurações.'
              : reply?.ok
                ? 'Como a página vai aparecer na loja depois de salvar.'
                : ''}
        </p>
        {reply && !reply.ok ? (
          <p className="text-sm text-red-700">{reply.error}</p>
        ) : reply?.ok ? (
          <div className="markdown" dangerouslySetInnerHTML={{ __html: reply.html }} />
        ) : null}
      </section>
    </div>
  );
}
