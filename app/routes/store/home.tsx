import { Link } from 'react-router';

import { HomeHero } from '~/components/store/home-hero';
import { PRIORITY_CARDS, ProductCard } from '~/components/store/product-card';
import { seoContext, useSettings } from '~/components/store/store-data';
import { TrustBlocks } from '~/components/store/trust-blocks';
import { listRatedProducts } from '~/flows/rated-products.server';
import { keepDataAfter } from '~/lib/revalidation';
import { organizationJsonLd, seoMeta } from '~/lib/seo';
import { listCategories } from '~/modules/catalog/index.server';

import type { Route } from './+types/home';

const FEATURED_LIMIT = 8;

export async function loader({ request, context }: Route.LoaderArgs) {
  // The staff's 'Selecionada' categories, or all of them while none is selected, if not empty.
  const [settings, categories] = await Promise.all([
    context.settings.get(),
    listCategories(context.readDb, { featuredOnly: true, withProducts: true }, context.changes),
  ]);
  const asked = new URL(request.url).searchParams.get('categoria')?.trim().toLowerCase();
  // Pills link by slug; an id still works for links from before slugs. An unknown category,
  // or one no longer offered here (an old link, say), shows every product.
  const category =
    categories.find((candidate) => candidate.slug === asked) ??
    categories.find((candidate) => candidate.id === asked) ??
    null;
  const products = await listRatedProducts(
    context.readDb,
    context.changes,
    { sort: 'newest', categoryId: category?.id },
    FEATURED_LIMIT,
    settings.enable_reviews,
  );
  return {
    categories,
    activeCategoryId: category?.id ?? null,
    products,
  };
}

export const shouldRevalidate = keepDataAfter('/cart', '/preferences');

export function meta({ matches }: Route.MetaArgs) {
  const context = seoContext(matches);
  return [
    ...seoMeta(context, { path: '/' }),
    { 'script:ld+json': organizationJsonLd(context.settings, context.origin) },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const settings = useSettings();
  const { categories, activeCategoryId, products } = loaderData;
  const active = categories.find((category) => category.id === activeCategoryId);
  const pills = [{ id: null, slug: null, name: 'Todos os produtos' }, ...categories];
  return (
    <>
      <HomeHero settings={settings} />
      <section
        id="destaques"
        aria-labelledby="featured-title"
        className="section-spacing mx-auto max-w-store px-4"
      >
        <h2 id="featured-title" className="mb-4 text-2xl">
          Produtos em destaque
        </h2>
        <nav aria-label="Categorias" className="-mx-4 mb-6 overflow-x-auto px-4">
          <ul className="flex gap-2">
            {pills.map((pill) => {
              const active = pill.id === activeCategoryId;
              return (
                <li key={pill.id ?? 'all'} className="shrink-0">
                  <Link
                    to={pill.slug ? `/?categoria=${pill.slug}#destaques` : '/#destaques'}
                    preventScrollReset
                    aria-current={active ? 'page' : undefined}
                    className={`inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-medium ${
                      active
                        ? 'border-transparent bg-(--store-button-primary-color) text-(--store-button-primary-text-color)'
                        : 'border-card-border bg-card'
                    }`}
                  >
                    {pill.name}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        {products.length === 0 ? (
          <p>Nenhum produto em destaque.</p>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4">
            {products.map(({ product, rating }, index) => (
              <li key={product.id}>
                <ProductCard product={product} rating={rating} priority={index < PRIORITY_CARDS} />
              </li>
            ))}
          </ul>
        )}
        <p className="mt-8 text-center">
          <Link
            to={active ? `/products?categoria=${active.slug}` : '/products'}
            className="btn btn-outline"
          >
            Ver todos os produtos
          </Link>
        </p>
      </section>
      <TrustBlocks settings={settings} />
    </>
  );
}
