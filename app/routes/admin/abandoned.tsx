import { data } from 'react-router';

import { AbandonedCheckoutList, type AbandonedRow } from '~/components/admin/abandoned-checkouts';
import { Pagination } from '~/components/ui/pagination';
import { formatDateTime } from '~/lib/date-format';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { parsePage, withPage } from '~/lib/pagination';
import { refuseForm } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { RECOVER_PATH, RECOVERY_KEY_PARAM, whatsappLink } from '~/modules/recovery';
import {
  abandonedActionSchema,
  issueRestoreKey,
  listAbandonedCheckouts,
} from '~/modules/recovery/index.admin.server';

import type { Route } from './+types/abandoned';

const PER_PAGE = 25;

function listPath(page: number): string {
  const search = withPage(new URLSearchParams(), page).toString();
  return search ? `/admin/abandoned?${search}` : '/admin/abandoned';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const page = parsePage(new URL(request.url).searchParams);
  const now = new Date();
  const [settings, list] = await Promise.all([
    context.settings.get(),
    listAbandonedCheckouts(context.db, { offset: (page - 1) * PER_PAGE, limit: PER_PAGE }, now),
  ]);
  const rows: AbandonedRow[] = list.rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    items: row.lines.map((line) => `${line.quantity} × ${line.name}`),
    valueCents: row.valueCents,
    // Written on the server in the store's time zone, so the browser renders the same text.
    when: formatDateTime(row.typedAt, settings.timezone),
    emailedAt: row.emailedAt ? formatDateTime(row.emailedAt, settings.timezone) : null,
    status: row.status,
    recovered: row.recovered,
    orderId: row.orderId,
    expired: row.expired,
  }));
  return {
    rows,
    total: list.total,
    page,
    pageCount: Math.max(1, Math.ceil(list.total / PER_PAGE)),
    delayMinutes: settings.abandoned_checkout_delay_minutes,
  };
}

/** A fresh restore link for one row, to copy or send by WhatsApp (the e-mail's stays valid). */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  await requireAdmin(context, request);
  const parsed = await parseForm(request, abandonedActionSchema);
  if (!parsed.ok) return refuseForm(parsed.error, { fieldErrors: parsed.fieldErrors });
  const issued = await issueRestoreKey(context.db, parsed.data.checkoutId, new Date());
  if (!issued) {
    return refuseForm('Este carrinho já virou pedido ou expirou: não há link a enviar.', {}, 404);
  }
  const url = `${context.origin}${RECOVER_PATH}?${new URLSearchParams({ [RECOVERY_KEY_PARAM]: issued.key })}`;
  const store = (await context.settings.get()).store_name;
  const greeting = issued.name ? `Olá, ${issued.name.split(' ')[0]}!` : 'Olá!';
  const message = `${greeting} Seu carrinho na ${store} ficou guardado. Para finalizar a compra, é só abrir: ${url}`;
  return data({
    ok: true as const,
    checkoutId: parsed.data.checkoutId,
    url,
    whatsapp: whatsappLink(issued.phone, message),
  });
}

export function meta() {
  return [{ title: 'Carrinhos abandonados · Painel' }];
}

export default function AdminAbandoned({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, pageCount, delayMinutes } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Carrinhos abandonados</h1>
        <p className="mt-1 text-sm text-slate-600">
          {total === 1 ? '1 carrinho' : `${total} carrinhos`} de clientes que digitaram o e-mail no
          checkout.{' '}
          {delayMinutes === 0
            ? 'O e-mail de recuperação está desligado em Configurações.'
            : `Quem não fez o pedido recebe um e-mail com o link do carrinho ${delayMinutes} minutos depois, uma única vez.`}
        </p>
      </div>
      <AbandonedCheckoutList rows={rows} />
      <Pagination
        look="admin"
        label="Páginas de carrinhos abandonados"
        page={page}
        pageCount={pageCount}
        href={listPath}
      />
    </div>
  );
}
