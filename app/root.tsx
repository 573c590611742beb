import { Fragment, useEffect, useState } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from 'react-router';

import type { RootData } from '~/components/store/store-data';
import { DemoNotice } from '~/components/ui/demo-notice';
import { markWhenHydrated } from '~/components/ui/hydration-slice';
import { isOwnImage } from '~/lib/admin-path';
import { isPrivatePage } from '~/lib/private-pages';
import { useNonce } from '~/lib/nonce';
import { publicFileUrl } from '~/lib/public-files';
import { keepDataAfter } from '~/lib/revalidation';
import { narrowPaymentSwitches, type AcceptedMethod } from '~/modules/payments';
import { canTakePayments } from '~/modules/payments/index.server';
import {
  DEMO_NOTICE,
  storefrontSettings,
  themeCss,
  type StoreSettings,
  type StorefrontSettings,
} from '~/modules/settings';
import { readColorScheme } from '~/modules/settings/index.server';
import { inlineScriptText, needsConsent, type TrackingScript } from '~/modules/tracking';
import { readConsent, trackingScripts } from '~/modules/tracking/index.server';
import { fontFaceCss, fontPreloads } from '~/styles/store-fonts.server';

import type { Route } from './+types/root';
import stylesheet from './app.css?url';

/**
 * The theme's CSS with the fonts' @font-face rules, and the font files to preload, worked out
 * here so the code that writes them and the list of every font's files stay out of the shopper's
 * JavaScript. The settings store answers with the same object until the settings change, so
 * each change is worked out once.
 */
const looks = new WeakMap<StoreSettings, { themeCss: string; fontPreloads: string[] }>();

function storeLook(settings: StoreSettings) {
  let look = looks.get(settings);
  if (!look) {
    look = {
      themeCss: fontFaceCss(settings) + themeCss(settings),
      fontPreloads: fontPreloads(settings),
    };
    looks.set(settings, look);
  }
  return look;
}

/**
 * The storefront's share of the settings, with only the payment switches the provider honours,
 * worked out once per change. Every page carries it in its data, so the rest stays here.
 */
const offered = new WeakMap<
  StoreSettings,
  { accepts: readonly AcceptedMethod[]; settings: StorefrontSettings }
>();

function offeredSettings(settings: StoreSettings, accepts: readonly AcceptedMethod[]) {
  let known = offered.get(settings);
  if (known?.accepts !== accepts) {
    known = { accepts, settings: storefrontSettings(narrowPaymentSwitches(settings, accepts)) };
    offered.set(settings, known);
  }
  return known.settings;
}

const NO_METHODS: readonly AcceptedMethod[] = [];

export async function loader({ request, context }: Route.LoaderArgs): Promise<RootData> {
  const [settings, consent, colorScheme, staff, mode, payments] = await Promise.all([
    context.settings.get(),
    readConsent(request),
    readColorScheme(request),
    // When the session cannot be read (the database failed), count the visitor as staff: the
    // page then goes without tags rather than risk them beside a session.
    context.admin().then(
      (admin) => admin !== null,
      () => true,
    ),
    context.settings.mode(),
    context.payments(),
  ]);
  return {
    // What the pages promise (the footer, 'ou 12x… sem juros') follows what checkout takes.
    settings: offeredSettings(settings, payments?.accepts ?? NO_METHODS),
    demo: mode === 'demo',
    selling: canTakePayments(payments, settings),
    ...storeLook(settings),
    consent,
    tracks: needsConsent(settings),
    colorScheme: settings.enable_dark_mode ? colorScheme : null,
    // LGPD: third-party tracking reaches the page only after the shopper said yes. Never beside
    // a signed-in admin's session (ADR 019): in the same origin a tag could use it to read the
    // admin's pages or post its forms. Layout also leaves it out of the admin's pages by URL.
    tracking: consent === 'granted' && !staff ? trackingScripts(settings) : null,
    staff,
  };
}

export const shouldRevalidate = keepDataAfter('/cart');

// With a precedence, React writes the stylesheet before the <link>s it gathers in the head (the
// fonts' preloads, the scripts' modulepreloads): the browser asks for it first, rather than
// after a queue of scripts on its six connections.
export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet, precedence: 'default' },
];

/** Scripts the shopper consented to, carrying this response's CSP nonce. */
function TrackingTags({ scripts }: { scripts: TrackingScript[] | undefined }) {
  const nonce = useNonce();
  // The browser hides nonce attributes from the DOM, so hydration must not compare them.
  return scripts?.map((script) => (
    <Fragment key={script.key}>
      {script.code ? (
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: inlineScriptText(script.code) }}
        />
      ) : null}
      {script.src ? <script nonce={nonce} suppressHydrationWarning async src={script.src} /> : null}
    </Fragment>
  ));
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // The settings store answers with the defaults when the database fails, so this is missing
  // only if the root loader could not run at all; the page then falls back to plain styles.
  const rootData = useRouteLoaderData<typeof loader>('root');
  const settings = rootData?.settings;
  // Decided by the routes React Router matched (whatever the URL's spelling: /Admin/login is the
  // sign-in page too), so no admin HTML ever carries a tracking script.
  const matches = useMatches();
  const admin = matches.some((match) => match.id.startsWith('routes/admin/'));
  // A document that opens on an order's page (an e-mailed link, often on another device) runs no
  // tag beside the shopper's name, address and items, for as long as it lives: tags that had
  // already run stay loaded (the thank-you page's Purchase event needs them), and a script
  // element React adds after hydration would not run the way the server's did.
  const [privateDocument] = useState(() => isPrivatePage(matches));
  const tracking = admin || privateDocument ? null : rootData?.tracking;
  const favicon = settings?.favicon_url;
  // Says that React has taken over the page: its scripts start only after the load event (ADR
  // 014), so a browser test waits for this before it relies on what they do. Layout's effect
  // runs after every component's inside it; the hydration slices inside come later (ADR 023).
  useEffect(() => markWhenHydrated(true), []);
  return (
    <html lang="pt-BR" data-theme={rootData?.colorScheme ?? undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link
          rel="icon"
          href={publicFileUrl(
            favicon && (!admin || isOwnImage(favicon)) ? favicon : '/favicon.svg',
          )}
        />
        {/* Fonts are fetched without credentials even from this origin: so must their preloads. */}
        {rootData?.fontPreloads.map((href) => (
          <link
            key={href}
            rel="preload"
            href={href}
            as="font"
            type="font/woff2"
            crossOrigin="anonymous"
          />
        ))}
        {/* The only stylesheet the page waits for is app.css (Links): the fonts' rules are here. */}
        {rootData ? <style>{rootData.themeCss}</style> : null}
        <Meta />
        {/* Stylesheets need no nonce ('self' allows them). An explicit empty one keeps React
            Router from adding the server's, which the browser could not match on hydration. */}
        <Links nonce="" />
        <TrackingTags scripts={tracking?.head} />
      </head>
      <body>
        <TrackingTags scripts={tracking?.bodyStart} />
        {rootData?.demo ? <DemoNotice text={DEMO_NOTICE} /> : null}
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        <TrackingTags scripts={tracking?.bodyEnd} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="font-heading text-2xl">
        {notFound ? 'Página não encontrada' : 'Algo deu errado'}
      </h1>
      <p className="mt-4">
        {notFound
          ? 'O endereço que você abriu não existe ou foi removido.'
          : 'Não conseguimos carregar esta página agora. Tente novamente em instantes.'}
      </p>
      <a className="mt-8 inline-block text-link underline" href="/">
        Voltar para a página inicial
      </a>
    </main>
  );
}
