import { useEffect, useState } from 'react';
import { Link, useFetcher } from 'react-router';

import { Money } from '~/components/ui/money';

export interface AbandonedRow {
  id: string;
  email: string;
  name: string;
  phone: string;
  /** '2 × Camiseta (M)', as the cart was saved. */
  items: string[];
  valueCents: number;
  /** pt-BR, in the store's time zone: when the shopper last typed at checkout. */
  when: string;
  emailedAt: string | null;
  status: 'open' | 'emailed' | 'converted';
  recovered: boolean;
  orderId: string | null;
  expired: boolean;
}

type LinkReply =
  | { ok: true; checkoutId: string; url: string; whatsapp: string | null }
  | { ok: false; toast: { message: string } };

function stateText(row: AbandonedRow): string {
  if (row.status === 'converted') return row.recovered ? 'Recuperado' : 'Virou pedido';
  if (row.expired) return 'Expirado';
  return 'Sem pedido';
}

/** The saved checkouts: who, what, how much, when, whether the e-mail went, and a link to send. */
export function AbandonedCheckoutList({ rows }: { rows: AbandonedRow[] }) {
  if (rows.length === 0) {
    return <p className="admin-card text-slate-700">Nenhum carrinho abandonado até agora.</p>;
  }
  return (
    <ul className="grid gap-4 lg:grid-cols-2">
      {rows.map((row) => (
        <li key={row.id} className="admin-card flex flex-col gap-2" data-testid="abandoned-row">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div>
              <p className="font-semibold">{row.name || row.email}</p>
              <p className="text-sm text-slate-600">{row.email}</p>
              {row.phone ? <p className="text-sm text-slate-600">{row.phone}</p> : null}
            </div>
            <span className="rounded-full border border-slate-300 px-2 py-0.5 text-sm">
              {stateText(row)}
            </span>
          </div>
          <ul className="text-sm">
            {row.items.map((item, index) => (
              <li key={index}>{item}</li>
            ))}
          </ul>
          <p className="text-sm">
            <Money cents={row.valueCents} className="font-semibold" /> · {row.when}
          </p>
          <p className="text-sm text-slate-600">
            {row.emailedAt
              ? `E-mail enviado em ${row.emailedAt}`
              : row.status === 'emailed'
                ? 'E-mail na fila de envio'
                : 'E-mail não enviado'}
          </p>
          {row.orderId ? (
            <Link to={`/admin/orders/${row.orderId}`} className="text-sm underline">
              Ver pedido
            </Link>
          ) : null}
          {row.status !== 'converted' && !row.expired ? <SendLink id={row.id} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** 'Copiar link': a fresh restore link, copied, shown, and offered by WhatsApp with a message. */
function SendLink({ id }: { id: string }) {
  const fetcher = useFetcher<LinkReply>();
  const [copied, setCopied] = useState(false);
  const reply = fetcher.data;
  const url = reply?.ok ? reply.url : null;
  useEffect(() => {
    if (!url) return;
    navigator.clipboard?.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }, [url]);
  return (
    <div className="flex flex-col gap-2">
      <fetcher.Form method="post" className="flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="link" />
        <input type="hidden" name="checkoutId" value={id} />
        <button type="submit" className="admin-button-secondary">
          Copiar link
        </button>
        {reply?.ok && reply.whatsapp ? (
          <a
            href={reply.whatsapp}
            target="_blank"
            rel="noreferrer"
            className="admin-button-secondary"
          >
            Enviar pelo WhatsApp
          </a>
        ) : null}
      </fetcher.Form>
      {url ? (
        <label className="flex flex-col gap-1 text-sm">
          {copied ? 'Link copiado:' : 'Link do carrinho:'}
          <input
            readOnly
            value={url}
            className="admin-input"
            onFocus={(event) => event.currentTarget.select()}
          />
        </label>
      ) : null}
      {reply && !reply.ok ? (
        <p role="alert" className="text-sm text-red-700">
          {reply.toast.message}
        </p>
      ) : null}
    </div>
  );
}
