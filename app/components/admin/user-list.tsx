import { useFetcher } from 'react-router';

import { AdminTable } from './admin-table';
import { ConfirmDialog } from './confirm-dialog';
import { useToastFrom } from './toaster';

export interface AdminListRow {
  id: string;
  email: string;
  fullName: string;
  isActive: boolean;
  /** ISO date, for the <time> element. */
  createdAt: string;
  /** pt-BR, written on the server in the store's time zone. */
  date: string;
}

/**
 * The admins: a table from tablet width up, one card per admin on a phone. Nobody can
 * deactivate themselves (the button is replaced by why); the server also keeps the last
 * active admin.
 */
export function UserList({ admins, meId }: { admins: AdminListRow[]; meId: string }) {
  return (
    <>
      <AdminTable
        caption="Usuários administradores"
        shownFrom="md"
        columns={[
          { label: 'Usuário' },
          { label: 'Status' },
          { label: 'Data de criação' },
          { label: 'Ações' },
        ]}
      >
        {admins.map((admin) => (
          <tr key={admin.id}>
            <td className="px-4 py-3">
              <Identity admin={admin} me={admin.id === meId} />
            </td>
            <td className="px-4 py-3">
              <StatusBadge active={admin.isActive} />
            </td>
            <td className="px-4 py-3 whitespace-nowrap">
              <time dateTime={admin.createdAt}>{admin.date}</time>
            </td>
            <td className="px-4 py-3">
              <StatusAction admin={admin} me={admin.id === meId} />
            </td>
          </tr>
        ))}
      </AdminTable>
      <ul className="space-y-3 md:hidden" aria-label="Usuários administradores">
        {admins.map((admin) => (
          <li key={admin.id} className="admin-card space-y-3">
            <Identity admin={admin} me={admin.id === meId} />
            <dl className="grid grid-cols-2 gap-2 text-sm">
              <div>
                <dt className="text-slate-600">Status</dt>
                <dd>
                  <StatusBadge active={admin.isActive} />
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Data de criação</dt>
                <dd>
                  <time dateTime={admin.createdAt}>{admin.date}</time>
                </dd>
              </div>
            </dl>
            <StatusAction admin={admin} me={admin.id === meId} />
          </li>
        ))}
      </ul>
    </>
  );
}

function Identity({ admin, me }: { admin: AdminListRow; me: boolean }) {
  return (
    <div className="min-w-0">
      <p className="font-semibold break-words text-slate-900">
        {admin.fullName}
        {me ? <span className="ml-1 font-normal text-slate-600">(você)</span> : null}
      </p>
      <p className="break-all text-slate-700">{admin.email}</p>
      <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
        <span className="rounded bg-blue-50 px-2 py-0.5 font-medium text-blue-800">
          Administrador
        </span>
        <span className="font-mono">ID: {admin.id.slice(0, 8)}...</span>
      </p>
    </div>
  );
}

function StatusBadge({ active }: { active: boolean }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${
        active ? 'bg-green-100 text-green-800' : 'bg-slate-200 text-slate-800'
      }`}
    >
      {active ? 'Ativo' : 'Inativo'}
    </span>
  );
}

function StatusAction({ admin, me }: { admin: AdminListRow; me: boolean }) {
  if (me) {
    return <p className="text-xs text-slate-600">Você não pode desativar a sua própria conta.</p>;
  }
  if (admin.isActive) {
    return (
      <ConfirmDialog
        title="Desativar administrador"
        message={
          <>
            Tem certeza que deseja desativar <strong className="break-all">{admin.email}</strong>?
            Ele será desconectado na hora e não poderá entrar no painel até ser ativado de novo.
          </>
        }
        confirmLabel="Desativar"
        busyLabel="Desativando..."
        triggerLabel={`Desativar ${admin.fullName}`}
        triggerClassName="admin-button-secondary"
        fields={{ intent: 'set-active', id: admin.id, active: 'false' }}
      >
        Desativar
      </ConfirmDialog>
    );
  }
  return <ActivateButton admin={admin} />;
}

function ActivateButton({ admin }: { admin: AdminListRow }) {
  const fetcher = useFetcher();
  useToastFrom(fetcher.data);
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="set-active" />
      <input type="hidden" name="id" value={admin.id} />
      <input type="hidden" name="active" value="true" />
      <button
        type="submit"
        className="admin-button-primary"
        disabled={busy}
        aria-label={busy ? undefined : `Ativar ${admin.fullName}`}
      >
        {busy ? 'Ativando...' : 'Ativar'}
      </button>
    </fetcher.Form>
  );
}
