import { Link, useRouteLoaderData } from 'react-router';

import { PAYMENT_PROVIDER_LABELS } from '~/modules/orders/index.admin';
import { ACCEPTED_METHOD_LABELS } from '~/modules/payments';
import type { IntegrationStatus } from '~/modules/payments';
import type { GroupPanel } from '~/modules/settings/index.admin';

/** What each payment provider means for the shopper and for staff. */
const PROVIDER_TEXTS = {
  sandbox:
    'Os pagamentos são simulados: a página do pedido mostra os botões Aprovar, Recusar e ' +
    'Expirar, e nenhum dinheiro é cobrado.',
  pix:
    'O cliente paga com um PIX copia e cola gerado com a chave PIX abaixo. Confira o ' +
    'recebimento no banco e confirme cada pagamento em Pedidos.',
  'pix-api':
    'O cliente paga um PIX cobrado pela API Pix do banco da loja, sem taxa de intermediário, ' +
    'e cada pagamento se confirma sozinho.',
  gateway:
    'Os pagamentos passam pelo gateway configurado no servidor, e a loja confirma cada um ' +
    'com o próprio gateway antes de aprovar o pedido.',
  mercadopago:
    'O cliente paga pelo Mercado Pago: o PIX aparece na página do pedido e se confirma ' +
    'sozinho quando o Mercado Pago avisa a loja.',
} as const;

function ConfiguredBadge({ configured }: { configured: boolean }) {
  return (
    <span
      className={`inline-flex shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${
        configured ? 'bg-green-100 text-green-900' : 'bg-slate-200 text-slate-800'
      }`}
    >
      {configured ? 'configurado' : 'não configurado'}
    </span>
  );
}

function PaymentProvider({ status }: { status: IntegrationStatus }) {
  const provider = status.provider
    ? { name: PAYMENT_PROVIDER_LABELS[status.provider], text: PROVIDER_TEXTS[status.provider] }
    : null;
  return (
    <div className="mb-4 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      <p className="font-medium text-slate-800">
        Provedor de pagamento ativo:{' '}
        <strong data-testid="payment-provider">{provider?.name ?? 'nenhum'}</strong>
      </p>
      <p className="mt-1 text-slate-700">
        {provider?.text ??
          'A finalização de compra está fechada: os clientes veem “Sistema de pagamento não ' +
            'configurado. Entre em contato com o suporte.”'}
      </p>
      {status.provider === 'sandbox' && status.production ? (
        <p className="mt-2 font-medium text-amber-900">
          Atenção: a loja está no ar com pagamentos de teste. Nenhuma venda é cobrada.
        </p>
      ) : null}
      {status.provider === 'pix' && !status.pixReady ? (
        <p className="mt-2 font-medium text-red-800">
          Preencha a chave PIX, o nome e a cidade do recebedor abaixo: sem eles a loja não consegue
          gerar o PIX e o cliente não tem como pagar.
        </p>
      ) : null}
      {status.provider ? (
        <p className="mt-2 text-slate-700" data-testid="accepted-methods">
          {`O checkout recebe: ${status.accepts.map((method) => ACCEPTED_METHOD_LABELS[method]).join(', ')}. `}
          Ligar abaixo uma forma de pagamento que o provedor não recebe não tem efeito: a loja não a
          anuncia.
        </p>
      ) : null}
      <p className="mt-2 text-xs text-slate-600">
        {status.providerFromEnv ? (
          'O provedor é escolhido no servidor (variável PAYMENT_PROVIDER), não no painel: peça a ' +
          'quem instalou a loja para trocá-lo.'
        ) : (
          <>
            O provedor e as credenciais dele ficam em{' '}
            <Link to="/admin/payments" className="underline">
              Pagamentos
            </Link>
            .
          </>
        )}
      </p>
    </div>
  );
}

function Integrations({ status }: { status: IntegrationStatus }) {
  const rows = [
    {
      label: 'Chave secreta do gateway de pagamento',
      variable: 'PAYMENT_GATEWAY_SECRET_KEY',
      configured: status.gatewaySecretKey,
      note: 'Necessária só com o gateway de pagamento. Também em “Pagamentos”.',
    },
    {
      label: 'Token de acesso do Mercado Pago',
      variable: 'MERCADOPAGO_ACCESS_TOKEN',
      configured: status.mercadoPagoAccessToken,
      note: 'Necessário só com o Mercado Pago (Suas integrações > Credenciais). Também em “Pagamentos”.',
    },
    {
      label: 'Assinatura secreta das notificações do Mercado Pago',
      variable: 'MERCADOPAGO_WEBHOOK_SECRET',
      configured: status.mercadoPagoWebhookSecret,
      note:
        'Necessária só com o Mercado Pago (Suas integrações > Webhooks): sem ela, a loja não ' +
        'confia em nenhum aviso de pagamento. Também em “Pagamentos”.',
    },
    {
      label: 'Token do rastreamento de vendas (UTMify)',
      variable: 'UTMIFY_API_TOKEN',
      configured: status.salesTrackingToken,
      note: 'Sem ele, as vendas não são enviadas ao rastreamento.',
    },
    {
      label: 'Servidor de e-mail (SMTP)',
      variable: 'SMTP_URL',
      configured: status.smtp,
      note:
        'Sem ele, os e-mails aos clientes ficam guardados como arquivos no servidor. Também em ' +
        '“Pagamentos”.',
    },
  ];
  return (
    <ul className="mb-4 divide-y divide-slate-200 rounded-md border border-slate-200 text-sm">
      {rows.map((row) => (
        <li key={row.variable} className="flex flex-wrap items-start justify-between gap-2 p-3">
          <div className="min-w-0">
            <p className="font-medium text-slate-800">{row.label}</p>
            <p className="text-xs break-words text-slate-600">
              {row.variable} · {row.note}
            </p>
          </div>
          <ConfiguredBadge configured={row.configured} />
        </li>
      ))}
    </ul>
  );
}

function Locale() {
  return (
    <p className="mb-4 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
      A loja vende no Brasil: moeda real (R$), idioma português do Brasil. O fuso horário vale para
      datas e horários de pedidos e relatórios.
    </p>
  );
}

/** Where the catalogue feeds are, and how each channel takes them (issue 39). */
function ProductFeeds() {
  const origin =
    useRouteLoaderData<{ storeOrigin: string }>('routes/admin/layout')?.storeOrigin ?? '';
  const feeds = [
    {
      channel: 'Google Merchant Center',
      url: `${origin}/feeds/google.xml`,
      how: 'Em Fontes de dados, adicione uma fonte de produtos a partir de um arquivo, escolha inserir um link, cole o endereço e peça uma busca por dia. Os produtos aparecem nas listagens gratuitas do Google e podem ir para os anúncios do Shopping.',
    },
    {
      channel: 'Meta Commerce Manager',
      url: `${origin}/feeds/meta.csv`,
      how: 'Em Catálogo › Fontes de dados, adicione itens por "Feed de dados", escolha "Atualizações programadas", cole o endereço e escolha uma atualização diária. O catálogo serve à loja no Instagram e no Facebook e aos anúncios de catálogo.',
    },
  ];
  return (
    <div className="mb-4 space-y-3 text-sm text-slate-700">
      <p>
        A loja publica todo o catálogo, uma linha por variante, com preço, preço promocional,
        estoque, fotos, marca, GTIN e MPN. Os arquivos se atualizam sozinhos quando um produto, um
        preço ou o estoque muda. Preencha marca, GTIN (código de barras) e categoria do Google em
        cada produto para ser aceito sem avisos.
      </p>
      {feeds.map((feed) => (
        <div key={feed.channel} className="rounded-md border border-slate-200 bg-slate-50 p-3">
          <p className="font-medium text-slate-900">{feed.channel}</p>
          <p className="mt-1 break-all">
            <a href={feed.url} className="text-blue-700 underline">
              {feed.url}
            </a>
          </p>
          <p className="mt-1">{feed.how}</p>
        </div>
      ))}
    </div>
  );
}

/** The read-only block a settings group shows above its fields. */
export function SettingsGroupPanel({
  panel,
  status,
}: {
  panel: GroupPanel;
  status: IntegrationStatus;
}) {
  switch (panel) {
    case 'payment-provider':
      return <PaymentProvider status={status} />;
    case 'integrations':
      return <Integrations status={status} />;
    case 'locale':
      return <Locale />;
    case 'product-feeds':
      return <ProductFeeds />;
  }
}
