import { Link } from 'react-router';

import { publicFileUrl } from '~/lib/public-files';
import { mediaSrcSet } from '~/modules/media';
import type { StorefrontSettings } from '~/modules/settings';
import { storeAfter } from '~/lib/store-name';

/**
 * The welcome: the store's banner behind a dark veil (white text stays readable on any photo)
 * or the primary colour darkened, and one call to action, white with dark text, that stands
 * out on either.
 */
export function HomeHero({ settings }: { settings: StorefrontSettings }) {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative isolate overflow-hidden bg-[color-mix(in_srgb,var(--store-primary-color)_65%,black)] text-white"
      data-testid="hero"
    >
      {settings.banner_url ? (
        <>
          <img
            src={publicFileUrl(settings.banner_url)}
            srcSet={mediaSrcSet(settings.banner_url)}
            sizes="100vw"
            alt=""
            width={1600}
            height={600}
            fetchPriority="high"
            className="absolute inset-0 -z-20 h-full w-full object-cover"
            data-testid="hero-banner"
          />
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-linear-to-r from-black/80 via-black/65 to-black/45"
          />
        </>
      ) : null}
      <div className="section-spacing mx-auto flex max-w-store flex-col items-start gap-4 px-4 py-12 md:py-20">
        <h1
          id="hero-title"
          className="max-w-3xl text-3xl text-(--store-home-title-color) md:text-5xl"
        >
          {settings.welcome_message || `Boas-vindas ${storeAfter('à', settings.store_name)}`}
        </h1>
        {settings.store_description ? (
          <p className="max-w-2xl text-lg">{settings.store_description}</p>
        ) : null}
        {settings.store_slogan ? (
          <p className="text-base font-semibold italic">{settings.store_slogan}</p>
        ) : null}
        <Link
          to="/products"
          className="btn mt-2 bg-white px-6 text-[color-mix(in_srgb,var(--store-primary-color)_50%,black)] shadow-lg hover:bg-white/90"
          data-testid="hero-cta"
        >
          Ver produtos
        </Link>
      </div>
    </section>
  );
}
