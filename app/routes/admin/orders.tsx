import { useRef, useSyncExternalStore } from 'react';
import {
  data,
  Form,
  Link,
  Outlet,
  useLocation,
  useMatch,
  useNavigate,
  useNavigation,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';

import { EditDialog } from '~/components/admin/edit-dialog';
import type { OrderActionReply } from '~/components/admin/order-detail';
import { OrderFiltersForm } from '~/components/admin/order-filters';
import { OrderList } from '~/components/admin/order-list';
import { useToastFrom } from '~/components/admin/toaster';
import { SubmitButton } from '~/components/ui/form';
import { Pagination } from '~/components/ui/pagination';
import {
  buyListLabels,
  invoicesOnList,
  issueListInvoices,
  runOrderListAction,
  type ListLabels,
} from '~/flows/admin-orders.server';
import { isDocumentRequest, parseForm, refuseOtherMethods } from '~/lib/form.server';
import { redirectFormerPage } from '~/lib/pagination';
import type { Toast } from '~/lib/toast';
import { redirectWithToast, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import {
  hasOrderFilters,
  MAX_COUNTED_ORDERS,
  orderFiltersQuery,
  parseOrderFilters,
} from '~/modules/orders/index.admin';
import { listAdminOrders, orderListActionSchema } from '~/modules/orders/index.admin.server';
import { countOf } from '~/lib/plural';

import type { Route } from './+types/orders';

export async function loader({ request, context }: Route.LoaderArgs) {
  redirectFormerPage(request);
  await requireAdmin(context, request);
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  const { timezone } = await context.settings.get();
  const page = await listAdminOrders(context.db, filters, { timeZone: timezone });
  return {
    filters,
    page,
    timeZone: timezone,
    labels: (await context.shippingLabels()) !== null,
    invoices: await invoicesOnList(context),
  };
}

/** Without JavaScript the browser gets the list again (reloading it posts nothing twice). */
function backToList(request: Request, done: Toast) {
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  return redirectWithToast(`/admin/orders${orderFiltersQuery(filters)}`, done);
}

export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const admin = await requireAdmin(context, request);
  const parsed = await parseForm(request, orderListActionSchema, { repeatable: ['ids'] });
  if (!parsed.ok) return data({ ok: false, toast: toast('error', parsed.error) }, 400);
  const form = parsed.data;
  if (form.intent === 'labels') {
    const bought = await buyListLabels(context, form.ids, admin);
    if (!('labels' in bought)) {
      return data({ ok: false, toast: toast('error', bought.error) }, bought.status);
    }
    const done = toast(bought.ok ? 'success' : 'error', bought.message);
    if (isDocumentRequest(request)) return backToList(request, done);
    return { ok: bought.ok, toast: done, labels: bought.labels };
  }
  const result =
    form.intent === 'invoices'
      ? await issueListInvoices(context, form.ids, admin)
      : await runOrderListAction(context, form, admin);
  if (!result.ok) {
    return data({ ok: false, toast: toast('error', result.error) }, result.status);
  }
  const done = toast('success', result.message);
  if (isDocumentRequest(request)) return backToList(request, done);
  return { ok: true, toast: done };
}

/** What the order over the list saves without changing anything the list shows. */
const UNLISTED_INTENTS = new Set(['note', 'tracking']);

/**
 * A refusal because the order changed meanwhile (another admin, another tab) reloads the page,
 * so staff see the status that stopped them; a note or a tracking code leaves the list as it is.
 */
export function shouldRevalidate({
  actionStatus,
  formAction,
  formData,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (actionStatus === 409) return true;
  const intent = formData?.get('intent');
  if (
    formAction?.startsWith('/admin/orders/') &&
    typeof intent === 'string' &&
    UNLISTED_INTENTS.has(intent)
  ) {
    return false;
  }
  return defaultShouldRevalidate;
}

export function meta() {
  return [{ title: 'Pedidos · Painel' }];
}

const DESKTOP = '(min-width: 1024px)';
const LABELS_FORM = 'order-labels-form';

function useDesktop(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const query = window.matchMedia(DESKTOP);
      query.addEventListener('change', notify);
      return () => query.removeEventListener('change', notify);
    },
    () => window.matchMedia(DESKTOP).matches,
    () => false,
  );
}

/** What the detail route reads from the list around it. */
export interface OrdersOutletContext {
  inDialog: boolean;
  listHref: string;
}

export default function Orders({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, page, timeZone, labels, invoices } = loaderData;
  const reply = actionData as (OrderActionReply & { labels?: ListLabels['labels'] }) | undefined;
  useToastFrom(reply);
  const location = useLocation();
  const detail = useMatch('/admin/orders/:id');
  const desktop = useDesktop();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const orderDialog = useRef<HTMLDialogElement>(null);
  const listHref = `/admin/orders${location.search}`;
  // 'Ver' opens the order over the list on wide screens; a link, a reload, a phone or a browser
  // without JavaScript gets the order as a page of its own.
  const inDialog =
    !!detail && desktop && (location.state as { modal?: boolean } | null)?.modal === true;
  if (detail && !inDialog) {
    return <Outlet context={{ inDialog: false, listHref } satisfies OrdersOutletContext} />;
  }
  const loading =
    navigation.state === 'loading' && navigation.location.pathname === '/admin/orders';
  const labelling =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'labels';
  const issuing =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'invoices';
  const labelsForm =
    (labels || invoices) && page.orders.some((order) => order.status === 'confirmed');
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-bold">Pedidos</h1>
        <p className="text-sm text-slate-600" aria-live="polite">
          {page.totalIsLowerBound
            ? `Mais de ${MAX_COUNTED_ORDERS.toLocaleString('pt-BR')} pedidos`
            : countOf(page.total, 'pedido', 'pedidos')}
        </p>
      </div>
      {reply?.toast && !reply.ok ? (
        // Shown in the page for a form posted without JavaScript (the toast needs it).
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
          {reply.toast.message}
        </p>
      ) : null}
      <OrderFiltersForm filters={filters} />
      {labelsForm ? (
        <Form
          id={LABELS_FORM}
          method="post"
          action={`/admin/orders${location.search}`}
          className="admin-card flex flex-wrap items-center justify-between gap-3"
        >
          <p className="text-sm text-slate-700">
            {labels
              ? 'Marque os pedidos pagos e gere as etiquetas do Melhor Envio de uma vez: cada pedido passa a enviado, com o código de rastreio.'
              : 'Marque os pedidos pagos e peça a NF-e de todos de uma vez pelo Bling.'}
          </p>
          <div className="flex flex-wrap gap-2">
            {labels ? (
              <SubmitButton
                busy={labelling}
                busyLabel="Gerando etiquetas..."
                className="admin-button-primary"
                name="intent"
                value="labels"
              >
                Gerar etiquetas
              </SubmitButton>
            ) : null}
            {invoices ? (
              <SubmitButton
                busy={issuing}
                busyLabel="Emitindo..."
                className="admin-button-secondary"
                name="intent"
                value="invoices"
              >
                Emitir NF-e
              </SubmitButton>
            ) : null}
          </div>
        </Form>
      ) : null}
      {reply?.labels ? (
        <div role="status" className="admin-card text-sm" data-testid="label-results">
          <p className="font-semibold">Resultado das etiquetas</p>
          <ul className="mt-1 space-y-1">
            {reply.labels.map((result) => (
              <li key={result.orderId} className={result.ok ? 'text-green-900' : 'text-red-900'}>
                <span className="font-mono font-semibold">{result.number ?? 'Pedido'}</span>:{' '}
                {result.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div aria-busy={loading} className={loading ? 'opacity-60 transition-opacity' : undefined}>
        {page.orders.length === 0 ? (
          <div className="admin-card text-center text-slate-700">
            <p>Nenhum pedido encontrado</p>
            {hasOrderFilters(filters) ? (
              <Link to="/admin/orders" className="mt-2 inline-block text-blue-800 underline">
                Ver todos os pedidos
              </Link>
            ) : null}
          </div>
        ) : (
          <OrderList
            orders={page.orders}
            timeZone={timeZone}
            search={location.search}
            labelsForm={labelsForm ? LABELS_FORM : undefined}
          />
        )}
      </div>
      {page.totalIsLowerBound && page.page === page.pageCount ? (
        <p className="text-sm text-slate-600">
          A lista mostra os {MAX_COUNTED_ORDERS.toLocaleString('pt-BR')} pedidos mais recentes. Use
          a busca ou o período para encontrar pedidos mais antigos.
        </p>
      ) : null}
      <Pagination
        look="admin"
        label="Páginas de pedidos"
        page={page.page}
        pageCount={page.pageCount}
        href={(target) => `/admin/orders${orderFiltersQuery(filters, target)}`}
      />
      {inDialog ? (
        // The order over the list: Esc or the close button go back to the list.
        <EditDialog
          dialogRef={orderDialog}
          labelledBy="order-detail-title"
          width="order"
          close={{ label: 'Fechar detalhes do pedido' }}
          openOnMount
          onClose={() => navigate(-1)}
        >
          <Outlet context={{ inDialog: true, listHref } satisfies OrdersOutletContext} />
        </EditDialog>
      ) : null}
    </div>
  );
}
