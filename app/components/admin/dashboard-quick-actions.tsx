import { Link } from 'react-router';

/**
 * Shortcuts to the screens staff use most. 'Relatórios' comes back when there is a report to
 * open (it only opened Pedidos).
 */
export function DashboardQuickActions() {
  const actions = [
    { to: '/admin/products/new', label: 'Adicionar produto' },
    { to: '/admin/orders', label: 'Ver pedidos' },
    { to: '/admin/users', label: 'Gerenciar usuários' },
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
