import { useLayoutEffect, useRef, useState } from 'react';

import { CartIcon, MenuIcon } from '~/components/ui/icons';
import { isOwnImage } from '~/lib/admin-path';
import { formatCents } from '~/lib/money';
import { themeVariables, type StoreSettings } from '~/modules/settings';
import { fontFaceCss } from '~/styles/font-faces';

const DEVICES = {
  desktop: { label: 'Computador', width: 1024 },
  mobile: { label: 'Celular', width: 360 },
} as const;

type Device = keyof typeof DEVICES;

/**
 * Fits a canvas of a device's width into the box it is shown in: scaled down (never up), with the
 * box as tall as the scaled canvas.
 */
function useFit(width: number) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState<{ scale: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const measure = () => {
      if (!frame.current || !canvas.current) return;
      const scale = Math.min(1, frame.current.clientWidth / width);
      setFit({ scale, height: canvas.current.offsetHeight * scale });
    };
    measure();
    const observer = new ResizeObserver(measure);
    if (frame.current) observer.observe(frame.current);
    if (canvas.current) observer.observe(canvas.current);
    return () => observer.disconnect();
  }, [width]);
  return { frame, canvas, fit };
}

/**
 * The storefront in miniature, styled by the form's unsaved values through the same theme
 * variables the store uses (themeVariables, scoped to this box instead of :root). Container
 * queries lay it out as the store would at the chosen width.
 */
export function SettingsPreview({ settings }: { settings: StoreSettings }) {
  const [device, setDevice] = useState<Device>('desktop');
  const { width } = DEVICES[device];
  const { frame, canvas, fit } = useFit(width);
  const theme = {
    ...themeVariables(settings),
    width,
    fontSize: 'var(--store-base-font-size)',
    fontFamily: 'var(--store-font-body)',
    backgroundColor: 'var(--store-background-color)',
    color: 'var(--store-text-color)',
    transform: fit && fit.scale < 1 ? `scale(${fit.scale})` : undefined,
    transformOrigin: 'top left',
  } as React.CSSProperties;
  const heading = { fontWeight: 'var(--store-heading-font-weight)' } as React.CSSProperties;
  const welcome = settings.welcome_message || `Bem-vindo à ${settings.store_name}`;

  return (
    <section aria-labelledby="settings-preview-title" className="admin-card min-w-0 p-4">
      {/* The same @font-face rules the store writes: the preview draws what shoppers will see. */}
      <style>{fontFaceCss(settings)}</style>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="settings-preview-title" className="text-base font-semibold">
          Prévia da loja
        </h2>
        <div role="group" aria-label="Tamanho da prévia" className="flex gap-1">
          {(Object.keys(DEVICES) as Device[]).map((key) => (
            <button
              key={key}
              type="button"
              aria-pressed={device === key}
              onClick={() => setDevice(key)}
              className={`rounded-md border px-3 py-1.5 text-sm font-medium ${
                device === key
                  ? 'border-blue-700 bg-blue-700 text-white'
                  : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100'
              }`}
            >
              {DEVICES[key].label}
            </button>
          ))}
        </div>
      </div>
      <p className="mb-3 text-xs text-slate-600">
        Mostra o que você digitou, antes de salvar. Valores inválidos ficam de fora.
        {[settings.logo_url, settings.header_banner_url].some((url) => url && !isOwnImage(url))
          ? ' Por segurança, o painel não carrega imagens de outros sites: confira o logo e o banner na loja.'
          : null}
      </p>
      <div
        ref={frame}
        className={`mx-auto overflow-hidden rounded-md border border-slate-300 ${
          device === 'mobile' ? 'max-w-[360px]' : ''
        }`}
        style={fit ? { height: fit.height } : undefined}
      >
        <div
          ref={canvas}
          data-testid="settings-preview-canvas"
          data-device={device}
          className="@container"
          style={theme}
        >
          {settings.header_banner_url && isOwnImage(settings.header_banner_url) ? (
            <img
              src={settings.header_banner_url}
              alt=""
              className="block max-h-24 w-full object-cover"
            />
          ) : null}
          <div className="border-b border-card-border bg-header text-header-ink">
            <div
              className={`flex items-center gap-2 px-4 py-3 ${
                settings.header_style === 'centered' ? 'justify-between' : ''
              }`}
            >
              <MenuIcon className="h-6 w-6 shrink-0 text-icon @3xl:hidden" />
              <div
                className={`flex min-w-0 items-center gap-2 ${
                  settings.header_style === 'centered' ? '' : 'mr-auto'
                }`}
              >
                {settings.logo_url && isOwnImage(settings.logo_url) ? (
                  <img
                    src={settings.logo_url}
                    alt=""
                    width={40}
                    height={40}
                    data-testid="settings-preview-logo"
                    className="h-10 w-10 shrink-0 object-contain"
                  />
                ) : null}
                <div className="min-w-0">
                  <p
                    data-testid="settings-preview-name"
                    className="truncate font-heading text-xl font-bold"
                  >
                    {settings.store_name}
                  </p>
                  {settings.store_slogan ? (
                    <p className="truncate text-sm">{settings.store_slogan}</p>
                  ) : null}
                </div>
              </div>
              <span className="hidden px-3 text-nav @3xl:inline">Produtos</span>
              <CartIcon className="h-6 w-6 shrink-0 text-icon" />
            </div>
          </div>
          <div className="bg-[color-mix(in_srgb,var(--store-primary-color)_65%,black)] px-4 py-8 text-white">
            <p
              className="font-heading text-2xl text-(--store-home-title-color) @3xl:text-4xl"
              style={heading}
            >
              {welcome}
            </p>
            {settings.store_description ? (
              <p className="mt-2 max-w-2xl">{settings.store_description}</p>
            ) : null}
          </div>
          <div className="section-spacing px-4">
            <p className="mb-4 font-heading text-2xl" style={heading}>
              Destaques
            </p>
            <div className="grid grid-cols-2 gap-3 @3xl:grid-cols-4">
              <SampleCard
                settings={settings}
                name="Fone Bluetooth"
                cents={19990}
                image="fone-bluetooth-pro-1"
              />
              <SampleCard
                settings={settings}
                name="Mouse sem fio"
                cents={8990}
                image="mouse-sem-fio-1"
              />
              <SampleCard
                settings={settings}
                name="Teclado mecânico"
                cents={34990}
                image="teclado-mecanico-rgb-1"
                className="hidden @3xl:flex"
              />
              <SampleCard
                settings={settings}
                name="Caixa de som"
                cents={24990}
                image="caixa-de-som-portatil-1"
                className="hidden @3xl:flex"
              />
            </div>
            <div className="mt-6 flex flex-wrap items-center gap-3">
              <span data-testid="settings-preview-button" className="btn btn-primary">
                {settings.buy_now_text}
              </span>
              <span className="btn btn-secondary">{settings.continue_shopping_text}</span>
              <span className="text-link underline">Um link da loja</span>
            </div>
          </div>
          <div className="bg-footer px-4 py-6 text-sm text-footer-ink">
            {settings.footer_text || `© ${settings.store_name}`}
          </div>
        </div>
      </div>
    </section>
  );
}

function SampleCard({
  settings,
  name,
  cents,
  image,
  className = 'flex',
}: {
  settings: StoreSettings;
  name: string;
  cents: number;
  image: string;
  className?: string;
}) {
  return (
    <div className={`product-card flex-col gap-2 ${className}`}>
      <img
        src={`/sample/${image}.svg`}
        alt=""
        width={400}
        height={400}
        className="aspect-square w-full rounded-card object-cover"
      />
      <p className="text-sm text-product-description">Exemplo</p>
      <p className="product-title">{name}</p>
      <span className="product-price">{formatCents(cents)}</span>
      <span className="btn btn-primary w-full">{settings.add_to_cart_text}</span>
    </div>
  );
}
