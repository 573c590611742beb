import { data } from 'react-router';

import { methodNotAllowed, readForm, refuseOtherMethods } from '~/lib/form.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { CONTENT_PAGES, contentPageSlug, type PagePreviewReply } from '~/modules/content';
import { renderContentPage } from '~/modules/content/index.server';
import { previewSettings } from '~/modules/settings/index.admin';

import type { Route } from './+types/settings-preview';

/** Only the settings form posts here; a visit gets the sign-in page or a 405, as an action would. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  return methodNotAllowed('POST');
}

/**
 * A content page as the storefront would show it with the settings form's unsaved values: the
 * same Markdown rendering (raw HTML escaped) on the server, so micromark never reaches the browser.
 */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(context, request);
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const read = await readForm(request);
  if (!read.ok) {
    return data<PagePreviewReply>(
      { ok: false, error: 'Não foi possível ler o formulário. Recarregue a página.' },
      400,
    );
  }
  const { form } = read;
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
