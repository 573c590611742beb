import { useLayoutEffect, useRef, useState } from 'react';

import { HomeHero } from '~/components/store/home-hero';
import { ProductCard } from '~/components/store/product-card';
import { StoreFooter } from '~/components/store/store-footer';
import { StoreHeader } from '~/components/store/store-header';
import { isOwnImage } from '~/lib/admin-path';
import { PreviewSettings } from '~/components/store/store-data';
import type { Product } from '~/modules/catalog';
import { narrowPaymentSwitches, type AcceptedMethod } from '~/modules/payments';
import { themeVariables, type StoreSettings } from '~/modules/settings';
import { fontFaceCss } from '~/styles/font-faces';

const DEVICES = {
  desktop: { label: 'Computador', width: 1024 },
  mobile: { label: 'Celular', width: 360 },
} as const;

type Device = keyof typeof DEVICES;

const SAMPLE_DATE = new Date('2025-01-01T00:00:00Z');

function sampleProduct(slug: string, name: string, priceCents: number): Product {
  return {
    id: `preview-${slug}`,
    name,
    slug,
    description: '',
    priceCents,
    fromPriceCents: priceCents,
    stockQuantity: 20,
    categoryId: null,
    category: { id: 'preview', name: 'Exemplo', slug: 'exemplo' },
    imageUrls: [`/sample/${slug}-1.svg`],
    options: [],
    brand: '',
    googleProductCategory: '',
    condition: 'new',
    createdAt: SAMPLE_DATE,
    updatedAt: SAMPLE_DATE,
  };
}

const SAMPLE_PRODUCTS = [
  sampleProduct('fone-bluetooth-pro', 'Fone Bluetooth', 19990),
  sampleProduct('mouse-sem-fio', 'Mouse sem fio', 8990),
  sampleProduct('teclado-mecanico-rgb', 'Teclado mecânico', 34990),
  sampleProduct('caixa-de-som-portatil', 'Caixa de som', 24990),
];

/**
 * The settings as the preview draws them: as the storefront would (the footer names only the ways
 * to pay that checkout takes through the provider, see narrowPaymentSwitches), but without
 * pictures from another site, which the panel does not load (its CSP).
 */
export function previewedSettings(
  settings: StoreSettings,
  accepts: readonly AcceptedMethod[],
): StoreSettings {
  const own = (url: string) => (url && isOwnImage(url) ? url : '');
  return narrowPaymentSwitches(
    {
      ...settings,
      logo_url: own(settings.logo_url),
      header_banner_url: own(settings.header_banner_url),
      banner_url: own(settings.banner_url),
    },
    accepts,
  );
}

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
 * The storefront in miniature: its own header, welcome, product cards and footer, given the
 * form's unsaved values (PreviewSettings) and styled through the same theme variables the store
 * uses (themeVariables, scoped to this box instead of :root).
 */
export function SettingsPreview({
  settings,
  accepts,
}: {
  settings: StoreSettings;
  /** What checkout takes through the store's payment provider (IntegrationStatus.accepts). */
  accepts: readonly AcceptedMethod[];
}) {
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
  const shown = previewedSettings(settings, accepts);

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
        {[settings.logo_url, settings.header_banner_url, settings.banner_url].some(
          (url) => url && !isOwnImage(url),
        )
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
          // A picture of the store, not a way into it: no link, field or button takes a click or
          // the focus, and screen readers skip it.
          inert
        >
          <PreviewSettings value={shown}>
            <StoreHeader />
            <HomeHero settings={shown} />
            <div className="section-spacing px-4">
              <p className="mb-4 font-heading text-2xl" style={heading}>
                Destaques
              </p>
              <div className="grid grid-cols-2 gap-3 @3xl:grid-cols-4">
                {SAMPLE_PRODUCTS.map((product, index) => (
                  <div key={product.id} className={index < 2 ? '' : 'hidden @3xl:block'}>
                    <ProductCard product={product} />
                  </div>
                ))}
              </div>
              <div className="mt-6 flex flex-wrap items-center gap-3">
                <span data-testid="settings-preview-button" className="btn btn-primary">
                  {shown.buy_now_text}
                </span>
                <span className="btn btn-secondary">{shown.continue_shopping_text}</span>
                <span className="text-link underline">Um link da loja</span>
              </div>
            </div>
            <StoreFooter />
          </PreviewSettings>
        </div>
      </div>
    </section>
  );
}
