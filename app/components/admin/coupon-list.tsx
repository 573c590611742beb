import { Link, useFetcher } from 'react-router';

import { Money } from '~/components/ui/money';
import type { ProductOptions } from '~/modules/catalog';
import {
  COUPON_KIND_LABELS,
  COUPON_STATE_LABELS,
  type CouponListRow,
  type CouponState,
} from '~/modules/coupons/index.admin';

import { AdminTable } from './admin-table';
import { ConfirmDialog } from './confirm-dialog';
import { CouponFormDialog } from './coupon-form-dialog';
import { useToastFrom } from './toaster';

type Choices = { products: ProductOptions; categories: { id: string; name: string }[] };

const STATE_COLOURS: Record<CouponState, string> = {
  active: 'bg-green-100 text-green-800',
  inactive: 'bg-slate-200 text-slate-800',
  expired: 'bg-red-100 text-red-800',
  scheduled: 'bg-blue-100 text-blue-800',
  used_up: 'bg-amber-100 text-amber-900',
};

/** The coupons: a table on wide screens, one card per coupon on a phone. */
export function CouponList({ coupons, ...choices }: { coupons: CouponListRow[] } & Choices) {
  return (
    <>
      <AdminTable
        caption="Cupons"
        shownFrom="lg"
        columns={[
          { label: 'Código' },
          { label: 'Desconto' },
          { label: 'Mínimo', end: true },
          { label: 'Validade' },
          { label: 'Usos', end: true },
          { label: 'Receita', end: true },
          { label: 'Situação' },
          { label: 'Ações' },
        ]}
      >
        {coupons.map((coupon) => (
          <tr key={coupon.id}>
            <td className="px-4 py-3 font-mono font-semibold break-all text-slate-900">
              {coupon.code}
            </td>
            <td className="px-4 py-3">
              <Discount coupon={coupon} />
            </td>
            <td className="px-4 py-3 text-right whitespace-nowrap">{coupon.minimumText ?? '—'}</td>
            <td className="px-4 py-3">{coupon.validityText}</td>
            <td className="px-4 py-3 text-right whitespace-nowrap">
              <Uses coupon={coupon} />
            </td>
            <td className="px-4 py-3 text-right whitespace-nowrap">
              <Revenue coupon={coupon} />
            </td>
            <td className="px-4 py-3">
              <StateBadge state={coupon.state} />
            </td>
            <td className="px-4 py-3">
              <Actions coupon={coupon} {...choices} />
            </td>
          </tr>
        ))}
      </AdminTable>
      <ul className="space-y-3 lg:hidden" aria-label="Cupons">
        {coupons.map((coupon) => (
          <li key={coupon.id} className="admin-card space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-mono text-lg font-semibold break-all text-slate-900">
                {coupon.code}
              </p>
              <StateBadge state={coupon.state} />
            </div>
            <dl className="grid grid-cols-2 gap-2 text-sm">
              <div>
                <dt className="text-slate-600">Desconto</dt>
                <dd>
                  <Discount coupon={coupon} />
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Mínimo</dt>
                <dd>{coupon.minimumText ?? '—'}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-slate-600">Validade</dt>
                <dd>{coupon.validityText}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Usos</dt>
                <dd>
                  <Uses coupon={coupon} />
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Receita</dt>
                <dd>
                  <Revenue coupon={coupon} />
                </dd>
              </div>
            </dl>
            <Actions coupon={coupon} {...choices} />
          </li>
        ))}
      </ul>
    </>
  );
}

function Discount({ coupon }: { coupon: CouponListRow }) {
  return (
    <>
      <span className="font-semibold text-slate-900">{coupon.valueText}</span>
      {coupon.kind === 'free_shipping' ? null : (
        <span className="block text-xs text-slate-600">{COUPON_KIND_LABELS[coupon.kind]}</span>
      )}
    </>
  );
}

function Uses({ coupon }: { coupon: CouponListRow }) {
  return (
    <>
      {coupon.usedCount}
      {coupon.usageLimit === null ? null : ` de ${coupon.usageLimit}`}
    </>
  );
}

function Revenue({ coupon }: { coupon: CouponListRow }) {
  return (
    <>
      <Money cents={coupon.revenueCents} />
      {/* The orders list filtered by this coupon (cancelled ones included, under their status). */}
      <Link
        to={`/admin/orders?coupon=${encodeURIComponent(coupon.code)}`}
        className="block text-xs text-blue-800 underline"
      >
        {coupon.orders === 1 ? '1 pedido' : `${coupon.orders} pedidos`}
        <span className="sr-only"> com o cupom {coupon.code}</span>
      </Link>
    </>
  );
}

function StateBadge({ state }: { state: CouponState }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STATE_COLOURS[state]}`}
    >
      {COUPON_STATE_LABELS[state]}
    </span>
  );
}

function Actions({ coupon, products, categories }: { coupon: CouponListRow } & Choices) {
  return (
    <div className="flex flex-wrap gap-2">
      <CouponFormDialog
        mode="edit"
        id={coupon.id}
        values={coupon.form}
        products={products}
        categories={categories}
      />
      <ActiveSwitch coupon={coupon} />
      {coupon.canDelete ? (
        <ConfirmDialog
          title="Excluir cupom"
          message={
            <>
              Tem certeza que deseja excluir o cupom{' '}
              <strong className="break-all">{coupon.code}</strong>? Esta ação não pode ser desfeita.
            </>
          }
          confirmLabel="Excluir"
          busyLabel="Excluindo..."
          triggerLabel={`Excluir cupom ${coupon.code}`}
          triggerClassName="admin-button-danger"
          fields={{ intent: 'delete', id: coupon.id }}
        >
          Excluir
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** 'Desativar' / 'Ativar': a deactivated coupon keeps its uses and history. */
function ActiveSwitch({ coupon }: { coupon: CouponListRow }) {
  const fetcher = useFetcher();
  useToastFrom(fetcher.data);
  const busy = fetcher.state !== 'idle';
  const intent = coupon.active ? 'deactivate' : 'activate';
  const label = coupon.active ? 'Desativar' : 'Ativar';
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={coupon.id} />
      <button
        type="submit"
        className="admin-button-secondary"
        disabled={busy}
        aria-label={busy ? undefined : `${label} cupom ${coupon.code}`}
      >
        {busy ? (coupon.active ? 'Desativando...' : 'Ativando...') : label}
      </button>
    </fetcher.Form>
  );
}
