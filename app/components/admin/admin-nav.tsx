import { Form, NavLink } from 'react-router';

import { useStorefrontUrl } from './storefront-url';

const ADMIN_SECTIONS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/products', label: 'Produtos', end: false },
  { to: '/admin/categories', label: 'Categorias', end: false },
  { to: '/admin/orders', label: 'Pedidos', end: false },
  { to: '/admin/abandoned', label: 'Carrinhos abandonados', end: false },
  { to: '/admin/coupons', label: 'Cupons', end: false },
  { to: '/admin/reviews', label: 'Avaliações', end: false },
  { to: '/admin/users', label: 'Usuários', end: false },
  { to: '/admin/payments', label: 'Pagamentos', end: false },
  { to: '/admin/integrations', label: 'Integrações', end: false },
  { to: '/admin/settings', label: 'Configurações', end: false },
] as const;

/** The sidebar's links, the signed-in e-mail and 'Sair' (the same in the aside and the drawer). */
export function AdminNav({ email, onNavigate }: { email: string; onNavigate?: () => void }) {
  const storefrontUrl = useStorefrontUrl();
  return (
    <div className="flex h-full flex-col">
      {/* First, where staff look for it: the store as shoppers see it (PUBLIC_URL under ADMIN_URL). */}
      <a
        href={storefrontUrl('/')}
        className="mb-4 block rounded-md border border-slate-600 px-3 py-2 text-sm font-medium text-white hover:bg-slate-700"
      >
        Ver loja
      </a>
      <nav aria-label="Painel" className="flex-1">
        <ul className="space-y-1">
          {ADMIN_SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                onClick={onNavigate}
                className={({ isActive }) =>
                  `block rounded-md px-3 py-2 text-sm font-medium ${
                    isActive ? 'bg-blue-700 text-white' : 'text-slate-200 hover:bg-slate-700'
                  }`
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6 border-t border-slate-700 pt-4">
        <p className="truncate text-sm text-slate-300" title={email}>
          {email}
        </p>
        <Form method="post" action="/admin/logout" className="mt-2">
          <button
            type="submit"
            className="admin-button w-full bg-slate-700 text-white hover:bg-slate-600"
          >
            Sair
          </button>
        </Form>
      </div>
    </div>
  );
}
