import { useRouteLoaderData } from 'react-router';

import { ProductCard } from '~/components/store/product-card';
import { StoreHeader } from '~/components/store/store-header';
import { listProducts } from '~/modules/catalog/index.server';

import type { Route } from './+types/home';
import type { loader as rootLoader } from '../root';

const FEATURED_LIMIT = 8;

export async function loader({ context }: Route.LoaderArgs) {
  return { products: await listProducts(context.db, { limit: FEATURED_LIMIT }) };
}

export function meta({ matches }: Route.MetaArgs) {
  const settings = matches[0].loaderData.settings;
  return [
    { title: settings.meta_title || settings.store_name },
    { name: 'description', content: settings.meta_description || settings.store_description },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const settings = useRouteLoaderData<typeof rootLoader>('root')!.settings;
  return (
    <>
      <StoreHeader settings={settings} />
      <main className="section-spacing mx-auto max-w-store px-4">
        <h1 className="mb-6 text-2xl">Produtos</h1>
        {loaderData.products.length === 0 ? (
          <p>Nenhum produto em destaque.</p>
        ) : (
          <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-4">
            {loaderData.products.map((product) => (
              <li key={product.id}>
                <ProductCard product={product} />
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}
