import { useRef } from 'react';
import { data, Link, Outlet } from 'react-router';

import { AdminNav } from '~/components/admin/admin-nav';
import { DialogButton } from '~/components/admin/dialog-buttons';
import { useStorefrontUrl } from '~/components/admin/storefront-url';
import { Toaster } from '~/components/admin/toaster';
import { CloseIcon, MenuIcon } from '~/components/ui/icons';
import { readToasts } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';

import type { Route } from './+types/layout';

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const settings = await context.settings.get();
  const { toasts, headers } = await readToasts(request);
  return data(
    {
      admin,
      storeName: settings.store_name,
      storefrontOrigin: context.storefrontOrigin,
      // The store's public origin, for addresses staff hand to other services (the feeds).
      storeOrigin: context.origin,
      toasts,
    },
    { headers },
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Painel · ${loaderData?.storeName ?? 'Vitrine'}` },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { admin, storeName, toasts } = loaderData;
  const drawer = useRef<HTMLDialogElement>(null);
  const storefrontUrl = useStorefrontUrl();
  return (
    <Toaster initial={toasts}>
      <div className="min-h-dvh bg-slate-100 font-sans text-slate-900 lg:flex">
        <a
          href="#conteudo"
          className="sr-only z-50 bg-white p-3 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Pular para o conteúdo
        </a>
        <header className="sticky top-0 z-30 flex items-center justify-between gap-2 bg-slate-800 px-4 py-3 text-white lg:hidden">
          <Link to="/admin" className="min-w-0 truncate font-semibold">
            {storeName} · Painel
          </Link>
          <div className="flex items-center gap-1">
            <a
              href={storefrontUrl('/')}
              className="rounded px-2 py-2 text-sm font-medium underline hover:bg-slate-700"
            >
              Ver loja
            </a>
            <DialogButton
              command="show-modal"
              dialogId="admin-drawer"
              dialog={drawer}
              className="rounded p-2 hover:bg-slate-700"
              aria-label="Abrir menu do painel"
            >
              <MenuIcon />
            </DialogButton>
          </div>
        </header>
        <dialog
          ref={drawer}
          id="admin-drawer"
          aria-label="Menu do painel"
          className="m-0 h-dvh max-h-none w-[min(18rem,85vw)] bg-slate-800 p-4 text-white backdrop:bg-black/50 lg:hidden"
        >
          <div className="mb-4 flex items-center justify-between">
            <span className="font-semibold">{storeName}</span>
            <DialogButton
              command="close"
              dialogId="admin-drawer"
              dialog={drawer}
              className="rounded p-2 hover:bg-slate-700"
              aria-label="Fechar menu do painel"
            >
              <CloseIcon />
            </DialogButton>
          </div>
          <AdminNav email={admin.email} onNavigate={() => drawer.current?.close()} />
        </dialog>
        <aside className="hidden w-60 shrink-0 bg-slate-800 p-4 lg:sticky lg:top-0 lg:block lg:h-dvh">
          <Link to="/admin" className="mb-6 block px-3 font-semibold text-white">
            {storeName} · Painel
          </Link>
          <AdminNav email={admin.email} />
        </aside>
        <main id="conteudo" className="min-w-0 flex-1 p-4 lg:p-8">
          <Outlet />
        </main>
      </div>
    </Toaster>
  );
}
