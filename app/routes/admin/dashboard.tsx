import { useNavigation } from 'react-router';
import uplotStylesheet from 'uplot/dist/uPlot.min.css?url';

import { MetricCard, PREVIOUS_MONTH_DAYS } from '~/components/admin/dashboard-metric-card';
import { DashboardPeriodFilter } from '~/components/admin/dashboard-period-filter';
import { DashboardQuickActions } from '~/components/admin/dashboard-quick-actions';
import { DashboardSales } from '~/components/admin/dashboard-sales';
import { DashboardStatusPanel } from '~/components/admin/dashboard-status-panel';
import { DashboardUpdated } from '~/components/admin/dashboard-updated';
import { DemoStorePanel } from '~/components/admin/demo-store-panel';
import { InvoiceAlerts } from '~/components/admin/invoice-alerts';
import { StoreReadinessPanel } from '~/components/admin/store-readiness-panel';
import { useToastFrom } from '~/components/admin/toaster';
import {
  GO_LIVE_MESSAGES,
  goLiveFromDashboard,
  loadDashboard,
} from '~/flows/admin-dashboard.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { formatCents } from '~/lib/money';
import { monthToDate, resolvePeriod, todayIn } from '~/lib/periods';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { goLiveFormSchema } from '~/modules/settings/index.admin.server';

import type { Route } from './+types/dashboard';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const settings = await context.settings.get();
  const today = todayIn(settings.timezone);
  const period = resolvePeriod(new URL(request.url).searchParams, today);
  const dashboard = await loadDashboard(context, settings, { period, month: monthToDate(today) });
  return { storeName: settings.store_name, period, ...dashboard, loadedAt: Date.now() };
}

/** 'Começar loja real' (the dashboard's one action): a demo store becomes live, for good. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  await requireAdmin(context, request);
  const parsed = await parseForm(request, goLiveFormSchema);
  if (!parsed.ok) {
    return refuseForm(`${GO_LIVE_MESSAGES.failed}: ${parsed.error}`, {
      fieldErrors: parsed.fieldErrors,
      values: parsed.values,
    });
  }
  const live = await goLiveFromDashboard(context);
  return live.ok
    ? successWithToast(request, live.message)
    : refuseForm(live.message, { fieldErrors: {}, values: {} }, live.status);
}

// uPlot's stylesheet comes with this page only: the storefront never loads it.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: uplotStylesheet }];

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Dashboard · Painel · ${loaderData?.storeName ?? 'Vitrine'}` },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}

const count = (n: number) => n.toLocaleString('pt-BR');

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { period, metrics, days, products, recovery, demo, readiness, invoices, loadedAt } =
    loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.location?.pathname === '/admin';
  const created = products.createdInPeriod;
  // Without JavaScript, 'Começar loja real' answers with this page and its toast.
  useToastFrom(actionData);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Dashboard</h1>
          <p className="mt-1 text-sm text-slate-600">Visão geral das métricas da sua loja</p>
        </div>
        <DashboardUpdated key={loadedAt} />
      </header>

      {demo ? <DemoStorePanel /> : null}
      {readiness.missing.length > 0 ? (
        <StoreReadinessPanel
          missing={readiness.missing}
          canTakePayments={readiness.canTakePayments}
        />
      ) : null}

      <InvoiceAlerts {...invoices} />

      <DashboardPeriodFilter period={period} busy={busy} />

      <div aria-busy={busy} className={`space-y-6 transition-opacity ${busy ? 'opacity-60' : ''}`}>
        <section aria-labelledby="metricas">
          <h2 id="metricas" className="sr-only">
            Métricas do período
          </h2>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
            <MetricCard
              id="totalOrders"
              label="Total de pedidos"
              value={count(metrics.totalOrders.current)}
              {...metrics.totalOrders}
            />
            <MetricCard
              id="paidOrders"
              label="Pedidos pagos"
              value={count(metrics.paidOrders.current)}
              {...metrics.paidOrders}
            />
            <MetricCard
              id="monthSales"
              label="Vendas do mês"
              value={formatCents(metrics.monthSales.current)}
              comparison={PREVIOUS_MONTH_DAYS}
              {...metrics.monthSales}
            />
            <MetricCard
              id="periodSales"
              label="Vendas do período"
              value={formatCents(metrics.periodSales.current)}
              {...metrics.periodSales}
            />
            {/* Money given away (PIX discounts, coupons): more of it is no good news in itself. */}
            <MetricCard
              id="periodDiscounts"
              label="Descontos"
              value={formatCents(metrics.periodDiscounts.current)}
              higherIsBetter={false}
              {...metrics.periodDiscounts}
            />
            <MetricCard
              id="pendingOrders"
              label="Pedidos pendentes"
              value={count(metrics.pendingOrders.current)}
              higherIsBetter={false}
              {...metrics.pendingOrders}
            />
            <MetricCard
              id="recoveredSales"
              label="Recuperado de carrinhos abandonados"
              value={formatCents(recovery.current)}
              current={recovery.current}
              previous={recovery.previous}
            />
            {/* A catalogue's size has no "previous period" we could know (deleted products
                leave no trace): the card says what changed instead. */}
            <MetricCard
              id="totalProducts"
              label="Total de produtos"
              value={count(products.total)}
              current={products.total}
              note={
                created === 0
                  ? 'Nenhum produto novo no período'
                  : created === 1
                    ? '1 produto novo no período'
                    : `${count(created)} produtos novos no período`
              }
            />
          </div>
        </section>

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <div className="min-w-0 lg:col-span-2">
            <DashboardSales days={days} range={period.range} />
          </div>
          <div className="space-y-6">
            <DashboardStatusPanel counts={metrics.byStatus} range={period.range} />
            <DashboardQuickActions />
          </div>
        </div>
      </div>
    </div>
  );
}
