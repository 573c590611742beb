import { data, isRouteErrorResponse, Link, Outlet } from 'react-router';

import { CartToast } from '~/components/store/cart-toast';
import { ConsentBanner } from '~/components/store/consent-banner';
import {
  seoContext,
  useRootData,
  useSettings,
  useStoreData,
  type StoreLayoutData,
} from '~/components/store/store-data';
import { StoreFooter } from '~/components/store/store-footer';
import { StoreHeader } from '~/components/store/store-header';
import { WhatsappButton } from '~/components/store/whatsapp-button';
import { HydrationSlice } from '~/components/ui/hydration-slice';
import { storeVisit } from '~/flows/store-visit.server';
import { dateFormat } from '~/lib/date-format';
import { publicFileUrl } from '~/lib/public-files';
import { keepDataAfter } from '~/lib/revalidation';
import { routeError } from '~/lib/route-errors';
import { listCategories } from '~/modules/catalog/index.server';

import type { Route } from './+types/layout';

const MAINTENANCE = 'maintenance';

export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  // Staff keep seeing the store while it is closed, to check it before reopening.
  if (settings.maintenance_mode && !(await context.admin())) {
    throw routeError(503, MAINTENANCE, { 'Retry-After': '600' });
  }
  const [{ cartCount, headers }, categories] = await Promise.all([
    storeVisit(request),
    listCategories(context.readDb, { withProducts: true }, context.changes),
  ]);
  return data<StoreLayoutData>(
    {
      origin: context.origin,
      categories: categories.map(({ name, slug }) => ({ name, slug })),
      // The footer's © year, from the server's clock in the store's time zone, so the page
      // the browser renders says the same.
      year: currentYear(settings.timezone),
      cartCount,
      maintenancePreview: settings.maintenance_mode,
    },
    { headers },
  );
}

function currentYear(timeZone: string): number {
  return Number(dateFormat('en', { year: 'numeric', timeZone }).format(new Date()));
}

export const shouldRevalidate = keepDataAfter('/preferences');

export function headers({ errorHeaders, parentHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? parentHeaders;
}

/** Header, footer and the floating parts around every public page. */
function StoreShell({ children }: { children: React.ReactNode }) {
  const settings = useSettings();
  const rootData = useRootData();
  const showBanner = rootData?.consent === null && rootData.tracks;
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#conteudo"
        className="sr-only z-50 bg-card p-3 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Pular para o conteúdo
      </a>
      {useStoreData()?.maintenancePreview ? (
        <p
          role="status"
          className="bg-accent px-4 py-2 text-center text-sm font-semibold text-black"
        >
          Modo de manutenção ativo: a loja está fechada para os clientes; só administradores a veem.
        </p>
      ) : null}
      {rootData?.staff && rootData.tracks ? (
        <p role="note" className="bg-card px-4 py-2 text-center text-sm text-ink">
          Você está conectado ao painel: por segurança, os scripts e pixels de rastreamento da loja
          não são carregados para você. Os clientes continuam a recebê-los.
        </p>
      ) : null}
      {/* Each hydrates on its own (ADR 023): the header first, a tap anywhere takes its own. */}
      <HydrationSlice>
        <StoreHeader />
      </HydrationSlice>
      <main id="conteudo" className="flex-1">
        <HydrationSlice>{children}</HydrationSlice>
      </main>
      <HydrationSlice>
        <StoreFooter />
      </HydrationSlice>
      <HydrationSlice>
        <CartToast />
        {settings.enable_chat && settings.contact_whatsapp ? (
          <WhatsappButton number={settings.contact_whatsapp} />
        ) : null}
        {showBanner ? <ConsentBanner /> : null}
      </HydrationSlice>
    </div>
  );
}

export default function StoreLayout() {
  return (
    <StoreShell>
      <Outlet />
    </StoreShell>
  );
}

export function meta({ error, matches }: Route.MetaArgs) {
  if (!error) return [];
  const { settings } = seoContext(matches);
  const title = !isRouteErrorResponse(error)
    ? 'Algo deu errado'
    : error.data === MAINTENANCE
      ? 'Em manutenção'
      : error.status === 404
        ? 'Página não encontrada'
        : 'Algo deu errado';
  return [{ title: `${title} | ${settings.store_name}` }, { name: 'robots', content: 'noindex' }];
}

function MaintenancePage() {
  const settings = useSettings();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      {settings.logo_url ? (
        <img
          src={publicFileUrl(settings.logo_url)}
          alt=""
          width={64}
          height={64}
          className="h-16 w-16"
        />
      ) : null}
      <h1 className="text-2xl">{settings.store_name} está em manutenção</h1>
      <p className="max-w-md">
        Estamos fazendo melhorias na loja e voltamos em breve. Obrigado pela paciência!
      </p>
      {settings.contact_email ? (
        <p>
          Precisa falar com a gente? Escreva para{' '}
          <a className="text-link underline" href={`mailto:${settings.contact_email}`}>
            {settings.contact_email}
          </a>
          .
        </p>
      ) : null}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.data === MAINTENANCE) return <MaintenancePage />;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <StoreShell>
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl">{notFound ? 'Página não encontrada' : 'Algo deu errado'}</h1>
        <p className="mt-4">
          {notFound
            ? 'O endereço que você abriu não existe ou foi removido.'
            : 'Não conseguimos carregar esta página agora. Tente novamente em instantes.'}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link className="btn btn-primary" to="/products">
            Ver produtos
          </Link>
          <Link className="btn btn-outline" to="/">
            Voltar para a página inicial
          </Link>
        </div>
      </div>
    </StoreShell>
  );
}
