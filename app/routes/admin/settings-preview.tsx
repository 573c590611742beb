import { data } from 'react-router';

import { methodNotAllowed, refuseOtherMethods } from '~/lib/form.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { CONTENT_PAGES, contentPageSlug } from '~/modules/content';
import { renderContentPage } from '~/modules/content/index.server';
import { previewSettings } from '~/modules/settings';

import type { Route } from './+types/settings-preview';

export type PagePreviewReply =
  { ok: true; slug: string; html: string; usesDefault: boolean } | { ok: false; error: string };

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** Only the settings form posts here; a visit gets the sign-in page or a 405, as an action would. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context.db, request);
  return methodNotAllowed('POST');
}

/**
 * A content page as the storefront would show it with the settings form's unsaved values: the
 * same Markdown rendering (raw HTML escaped) on the server, so micromark never reaches the browser.
 */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(context.db, request);
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const type = request.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  let form: FormData | null = null;
  if (FORM_TYPES.includes(type)) form = await request.formData().catch(() => null);
  if (!form) {
    return data<PagePreviewReply>(
      { ok: false, error: 'Não foi possível ler o formulário. Recarregue a página.' },
      400,
    );
  }
  const page = form.get('page');
  const slug = typeof page === 'string' ? contentPageSlug(page) : null;
  if (!slug) return data<PagePreviewReply>({ ok: false, error: 'Página desconhecida.' }, 400);
  const settings = previewSettings(form, await context.settings.get());
  const rendered = renderContentPage(slug, settings);
  return data<PagePreviewReply>({
    ok: true,
    slug,
    html: rendered.html,
    usesDefault: settings[CONTENT_PAGES[slug].textSetting].trim() === '',
  });
}
