import { Link } from 'react-router';

import type { DayRange } from '~/lib/periods';

/** Shortcuts to the screens staff use most; 'Relatórios' opens the orders of the period shown. */
export function DashboardQuickActions({ range }: { range: DayRange }) {
  const actions = [
    { to: '/admin/products/new', label: 'Adicionar produto' },
    { to: '/admin/orders', label: 'Ver pedidos' },
    { to: '/admin/users', label: 'Gerenciar usuários' },
    {
      to: `/admin/orders?${new URLSearchParams({ from: range.from, to: range.to })}`,
      label: 'Relatórios',
    },
  ];
  return (
    <section aria-labelledby="acoes-rapidas" className="admin-card">
      <h2 id="acoes-rapidas" className="text-lg font-semibold">
        Ações rápidas
      </h2>
      <ul className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-1">
        {actions.map((action) => (
          <li key={action.label}>
            <Link to={action.to} className="admin-button-secondary w-full">
              {action.label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
