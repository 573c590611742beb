import { createContext, useContext } from 'react';
import { useRouteLoaderData } from 'react-router';

import type { SeoContext } from '~/lib/seo';
import type { StorefrontSettings } from '~/modules/settings';
import type { Consent, TrackingScripts } from '~/modules/tracking';

export const STORE_LAYOUT_ID = 'routes/store/layout';

/**
 * What the root loader hands every page. Written out here, not inferred from root.tsx, so the
 * components that read it do not import the routes that render them (ADR 021).
 */
export interface RootData {
  settings: StorefrontSettings;
  demo: boolean;
  /**
   * Whether checkout can take a payment now. While it cannot, where buying starts says the store
   * is not selling yet, and no page asks to be indexed.
   */
  selling: boolean;
  themeCss: string;
  fontPreloads: string[];
  consent: Consent;
  /** Whether the store loads anything the shopper must consent to; without it, no banner. */
  tracks: boolean;
  colorScheme: 'dark' | 'light' | null;
  tracking: TrackingScripts | null;
  staff: boolean;
}

/** What the store layout's loader hands the storefront's pages. */
export interface StoreLayoutData {
  origin: string;
  /** The categories that hold a product, for the menu and the desktop's category bar. */
  categories: { name: string; slug: string }[];
  /** The footer's © year, in the store's time zone. */
  year: number;
  cartCount: number;
  maintenancePreview: boolean;
}

/** Settings, consent, colour scheme and tracking; missing only if the root loader failed. */
export function useRootData() {
  return useRouteLoaderData<RootData>('root');
}

/**
 * Settings that replace the saved ones for the storefront components below it: the admin's
 * preview draws the real header, cards and footer with the form's unsaved values.
 */
export const PreviewSettings = createContext<StorefrontSettings | null>(null);

/** The store settings; the root loader always provides them (defaults when the DB fails). */
export function useSettings(): StorefrontSettings {
  const preview = useContext(PreviewSettings);
  const root = useRootData();
  return preview ?? root!.settings;
}

/** Whether the store can take a payment now (see RootData.selling). */
export function useSelling(): boolean {
  return useRootData()?.selling ?? true;
}

/** Cart count, consent, theme and origin from the store layout; undefined outside the store. */
export function useStoreData() {
  return useRouteLoaderData<StoreLayoutData>(STORE_LAYOUT_ID);
}

interface MatchLike {
  id: string;
  loaderData?: unknown;
}

/** Settings and origin for a page's `meta` function, read from the root and layout matches. */
export function seoContext(
  matches: readonly (MatchLike | undefined)[],
): SeoContext & { settings: StorefrontSettings } {
  const root = matches.find((match) => match?.id === 'root')?.loaderData as
    Pick<RootData, 'settings' | 'demo' | 'selling'> | undefined;
  const store = matches.find((match) => match?.id === STORE_LAYOUT_ID)?.loaderData as
    { origin: string } | undefined;
  const settings = root!.settings;
  return {
    settings,
    origin: store?.origin ?? settings.canonical_url.replace(/\/+$/, ''),
    unlisted: root!.demo || !root!.selling,
  };
}
