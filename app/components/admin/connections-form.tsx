import { useEffect, useRef } from 'react';
import { Form, Link, useNavigation } from 'react-router';

import { ErrorSummary, FormField, SubmitButton } from '~/components/ui/form';
import type { Toast } from '~/lib/toast';
import type { ConnectionField, ConnectionsView } from '~/modules/connections';
import { PAYMENT_PROVIDER_LABELS } from '~/modules/orders/index.admin';
import { ACCEPTED_METHOD_LABELS, type AcceptedMethod } from '~/modules/payments';
import { ownEntry } from '~/lib/lookup';

import { ADMIN_FORM } from './form-look';
import { ToastFallback, useToastFrom } from './toaster';

type Reply =
  | {
      ok: boolean;
      toast: Toast;
      fieldErrors?: Record<string, string>;
      values?: Record<string, string>;
    }
  | undefined;

const ID = 'conexoes';
/**
 * The 'Remover' buttons belong to a form of their own: Enter in a field submits the main form
 * with its first button, which must be 'Salvar', not a removal.
 */
const REMOVE_FORM = 'conexoes-remover';
/** 'Enviar e-mail de teste' posts alone too: it tests what is saved, not what is typed. */
const TEST_EMAIL_FORM = 'conexoes-teste-email';
/** 'Testar conexão' and 'Cadastrar webhook' of the API Pix: they act on what is saved. */
const PIX_API_FORM = 'conexoes-api-pix';

const LABELS: Record<ConnectionField, string> = {
  payment_provider: 'Provedor de pagamento',
  mercadopago_access_token: 'Token de acesso (Access Token)',
  mercadopago_webhook_secret: 'Assinatura secreta dos webhooks',
  gateway_url: 'Endereço do gateway',
  gateway_secret_key: 'Chave secreta do gateway',
  smtp_url: 'Servidor de e-mail (SMTP)',
  smtp_from: 'E-mail remetente',
  melhor_envio_token: 'Token do Melhor Envio',
  melhor_envio_webhook_secret: 'Segredo do aplicativo (webhooks do Melhor Envio)',
  pix_api_url: 'Endereço da API Pix',
  pix_api_token_url: 'Endereço de token (OAuth2)',
  pix_api_client_id: 'Client ID',
  pix_api_client_secret: 'Client Secret',
  pix_api_certificate: 'Certificado do banco',
  pix_api_certificate_password: 'Senha do certificado',
  bling_client_id: 'Client Id do aplicativo do Bling',
  bling_client_secret: 'Client Secret do aplicativo do Bling',
};

const PROVIDER_CHOICES = [
  { value: '', label: 'Nenhum' },
  { value: 'mercadopago', label: 'Mercado Pago (PIX, cartão e boleto)' },
  { value: 'pix-api', label: 'PIX pela API Pix do banco (confirmação automática, sem taxa)' },
  { value: 'pix', label: 'PIX com a chave da loja (confirmação manual)' },
  { value: 'gateway', label: 'Gateway de pagamento' },
] as const;

/** Where a field's value comes from, as a badge beside its label. */
function SourceBadge({ source }: { source: ConnectionsView['sources'][ConnectionField] }) {
  const [text, look] =
    source === 'env'
      ? ['definido no servidor', 'bg-blue-100 text-blue-900']
      : source === 'admin'
        ? ['configurado', 'bg-green-100 text-green-900']
        : source === 'unreadable'
          ? ['digite de novo', 'bg-red-100 text-red-900']
          : ['não configurado', 'bg-slate-200 text-slate-800'];
  return (
    <span className={`ml-2 inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${look}`}>
      {text}
    </span>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${ID}-${title}`} className="admin-card space-y-4">
      <h2 id={`${ID}-${title}`} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function ConnectionsForm({
  connections,
  provider,
  pixReady,
  production,
  publicUrlSet,
  webhookUrl,
  pixApiWebhookUrl,
  pixApiWebhook,
  adminEmail,
  reply,
}: {
  connections: ConnectionsView;
  provider: { name: string; accepts: readonly AcceptedMethod[] } | null;
  pixReady: boolean;
  production: boolean;
  publicUrlSet: boolean;
  webhookUrl: string;
  pixApiWebhookUrl: string;
  /** What the bank says of its webhook, when the API Pix is in force. */
  pixApiWebhook: { registered: string | null } | { error: string } | null;
  adminEmail: string;
  reply: unknown;
}) {
  const answer = reply as Reply;
  useToastFrom(answer);
  const form = useRef<HTMLFormElement>(null);
  // Each load after a save: the typed secrets leave the page, and the fields show what is kept.
  useEffect(() => form.current?.reset(), [connections]);
  const navigation = useNavigation();
  const sending = (intent: string) =>
    navigation.state === 'submitting' &&
    navigation.formAction === '/admin/payments' &&
    navigation.formData?.get('intent') === intent;
  const saving = sending('save');
  const testing = sending('test-email');
  const pixApiTesting = sending('pix-api-test');
  const pixApiRegistering = sending('pix-api-webhook');
  const errors = answer?.ok === false ? (answer.fieldErrors ?? {}) : {};
  const { sources, plain, canStoreSecrets } = connections;
  const value = (name: keyof ConnectionsView['plain']) =>
    (answer?.ok === false ? answer.values?.[name] : undefined) ?? plain[name];

  /** A secret's field: never filled in; blank keeps what is stored, 'Remover' forgets it. */
  const secret = (name: ConnectionField, hint: string) => {
    const source = sources[name];
    const fromEnv = source === 'env';
    return (
      <FormField
        look={ADMIN_FORM}
        idPrefix={ID}
        name={name}
        label={
          <>
            {LABELS[name]}
            <SourceBadge source={source} />
          </>
        }
        hint={
          fromEnv
            ? `Definido no servidor: a variável de ambiente vale no lugar desta tela. ${hint}`
            : source === 'unreadable'
              ? 'O valor guardado não pode ser lido com a chave atual do servidor (SECRETS_KEY mudou?). Digite-o de novo.'
              : !canStoreSecrets
                ? 'Para guardar senhas e tokens aqui, o servidor precisa da variável SECRETS_KEY (a mesma em todas as instâncias).'
                : source === 'admin'
                  ? `Guardado criptografado e nunca mostrado. Digite um novo para substituí-lo. ${hint}`
                  : hint
        }
        error={errors[name]}
      >
        {(control) => (
          <div className="flex flex-wrap gap-2">
            <input
              {...control}
              type="password"
              autoComplete="off"
              spellCheck={false}
              disabled={fromEnv || !canStoreSecrets}
              placeholder={source === 'admin' ? '••••••••' : undefined}
              className="admin-input min-w-0 flex-1"
            />
            {source === 'admin' ? (
              <button
                type="submit"
                form={REMOVE_FORM}
                name="remove"
                value={name}
                className="admin-button-secondary"
                aria-label={`Remover ${LABELS[name]}`}
              >
                Remover
              </button>
            ) : null}
          </div>
        )}
      </FormField>
    );
  };

  const plainField = (
    name: 'gateway_url' | 'smtp_from' | 'pix_api_url' | 'pix_api_token_url' | 'pix_api_client_id',
    type: 'url' | 'email' | 'text',
    hint: string,
  ) => (
    <FormField
      look={ADMIN_FORM}
      idPrefix={ID}
      name={name}
      label={
        <>
          {LABELS[name]}
          <SourceBadge source={sources[name]} />
        </>
      }
      hint={sources[name] === 'env' ? `Definido no servidor. ${hint}` : hint}
      error={errors[name]}
    >
      {(control) => (
        <input
          {...control}
          type={type}
          defaultValue={value(name)}
          disabled={sources[name] === 'env'}
          className="admin-input"
        />
      )}
    </FormField>
  );

  const chosen = value('payment_provider');
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold">Pagamentos</h1>
        <p className="mt-1 text-sm text-slate-600">
          Conecte a loja ao provedor de pagamento, ao envio de e-mails e às transportadoras. Senhas
          e tokens ficam guardados criptografados e nunca são mostrados de novo. O que você salvar
          vale na hora, sem reiniciar a loja.
        </p>
      </div>
      <ToastFallback toast={answer?.toast} />
      {answer?.ok === false && Object.keys(errors).length ? (
        <ErrorSummary
          look={ADMIN_FORM}
          message="Corrija os campos indicados: nada foi salvo."
          errors={errors}
          labels={LABELS}
          idPrefix={ID}
        />
      ) : null}
      <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" role="status">
        <p className="font-medium text-slate-800">
          Provedor de pagamento ativo:{' '}
          <strong data-testid="active-provider">
            {provider
              ? (ownEntry(PAYMENT_PROVIDER_LABELS, provider.name) ?? provider.name)
              : 'nenhum'}
          </strong>
        </p>
        {provider ? (
          <p className="mt-1 text-slate-700">
            {`O checkout recebe: ${provider.accepts.map((method) => ACCEPTED_METHOD_LABELS[method]).join(', ')}.`}
          </p>
        ) : (
          <p className="mt-1 text-slate-700">
            A finalização de compra está fechada: escolha um provedor abaixo para começar a vender.
          </p>
        )}
        {provider?.name === 'sandbox' && production ? (
          <p className="mt-2 font-medium text-amber-900">
            Loja de demonstração: os pagamentos são simulados e nenhuma venda é cobrada.
          </p>
        ) : null}
      </div>

      <Form
        ref={form}
        method="post"
        action="/admin/payments"
        encType="multipart/form-data"
        className="space-y-4"
        noValidate
      >
        <input type="hidden" name="intent" value="save" />
        <Section title="Provedor de pagamento">
          <FormField
            look={ADMIN_FORM}
            idPrefix={ID}
            name="payment_provider"
            label={
              <>
                {LABELS.payment_provider}
                <SourceBadge source={sources.payment_provider} />
              </>
            }
            hint={
              sources.payment_provider === 'env'
                ? 'Definido no servidor (variável PAYMENT_PROVIDER): peça a quem instalou a loja para trocá-lo.'
                : 'Sem provedor, uma loja de demonstração usa pagamentos simulados e uma loja real não vende.'
            }
            error={errors.payment_provider}
          >
            {(control) => (
              <select
                {...control}
                defaultValue={chosen}
                disabled={sources.payment_provider === 'env'}
                className="admin-input"
              >
                {PROVIDER_CHOICES.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </Section>

        <Section title="Mercado Pago">
          <p className="text-sm text-slate-700">
            No painel do Mercado Pago, em Suas integrações, copie o Access Token de produção
            (Credenciais) e, em Webhooks, cadastre o endereço abaixo com o evento Pagamentos e copie
            a assinatura secreta.
          </p>
          <p className="text-sm">
            Endereço dos webhooks:{' '}
            <code className="break-all rounded bg-slate-100 px-1" data-testid="webhook-url">
              {webhookUrl}
            </code>
          </p>
          {publicUrlSet ? null : (
            <p className="text-sm font-medium text-amber-900">
              O Mercado Pago só avisa a loja no endereço público dela: peça a quem instalou a loja
              para definir a variável PUBLIC_URL (como https://sualoja.com.br).
            </p>
          )}
          {secret('mercadopago_access_token', 'Começa com APP_USR-.')}
          {secret('mercadopago_webhook_secret', 'Sem ela, a loja não confia em nenhum aviso.')}
        </Section>

        <Section title="PIX com a chave da loja">
          <p className="text-sm text-slate-700">
            {pixReady
              ? 'A chave PIX, o nome e a cidade do recebedor estão preenchidos. '
              : 'Preencha a chave PIX, o nome e a cidade do recebedor: sem eles a loja não gera o PIX. '}
            <Link to="/admin/settings?aba=avancado" className="underline">
              Editar os dados do PIX em Configurações › Avançado
            </Link>
          </p>
        </Section>

        <Section title="PIX pela API Pix do banco">
          <p className="text-sm text-slate-700">
            Para contas PJ na Efí, Inter, Sicoob, Sicredi, Itaú ou Banco do Brasil: o banco cobra o
            PIX pela API Pix do Banco Central, sem intermediário, e avisa a loja de cada pagamento.
            Peça ao banco as credenciais da API Pix (Client ID, Client Secret) e o certificado. A
            chave PIX é a de Configurações › Avançado.
          </p>
          {plainField(
            'pix_api_url',
            'url',
            'O endereço da API Pix do banco, como https://pix.api.efipay.com.br/v2.',
          )}
          {plainField(
            'pix_api_token_url',
            'url',
            'O endereço de token OAuth2 do banco, como https://pix.api.efipay.com.br/oauth/token.',
          )}
          {plainField('pix_api_client_id', 'text', 'O Client ID da aplicação no banco.')}
          {secret('pix_api_client_secret', 'O Client Secret da aplicação no banco.')}
          <FormField
            look={ADMIN_FORM}
            idPrefix={ID}
            name="pix_api_certificate"
            label={
              <>
                {LABELS.pix_api_certificate}
                <SourceBadge source={sources.pix_api_certificate} />
              </>
            }
            hint={
              sources.pix_api_certificate === 'env'
                ? 'Definido no servidor (PIX_API_CERT).'
                : 'Arquivo .p12 ou .pfx (como a Efí entrega), ou .pem com o certificado e a chave. Guardado criptografado; envie outro para substituí-lo.'
            }
            error={errors.pix_api_certificate}
          >
            {(control) => (
              <input
                {...control}
                type="file"
                accept=".p12,.pfx,.pem,.crt,.key"
                disabled={sources.pix_api_certificate === 'env' || !canStoreSecrets}
                className="admin-input"
              />
            )}
          </FormField>
          {secret('pix_api_certificate_password', 'Só para certificado .p12 com senha.')}
          <p className="text-sm">
            Endereço do webhook:{' '}
            <code className="break-all rounded bg-slate-100 px-1" data-testid="pix-api-webhook-url">
              {pixApiWebhookUrl}
            </code>{' '}
            (o banco chama {`${pixApiWebhookUrl}/pix`} com certificado, veja docs/deploy).
          </p>
          {pixApiWebhook ? (
            <p className="text-sm" data-testid="pix-api-webhook">
              {'error' in pixApiWebhook
                ? `Não foi possível consultar o webhook no banco: ${pixApiWebhook.error}`
                : pixApiWebhook.registered
                  ? `Webhook cadastrado no banco: ${pixApiWebhook.registered}`
                  : 'Nenhum webhook cadastrado no banco.'}
            </p>
          ) : null}
          {provider?.name === 'pix-api' ? (
            <div className="flex flex-wrap gap-2">
              <button
                type="submit"
                form={PIX_API_FORM}
                name="intent"
                value="pix-api-test"
                className="admin-button-secondary"
                disabled={pixApiTesting}
              >
                {pixApiTesting ? 'Testando…' : 'Testar conexão'}
              </button>
              <button
                type="submit"
                form={PIX_API_FORM}
                name="intent"
                value="pix-api-webhook"
                className="admin-button-secondary"
                disabled={pixApiRegistering}
              >
                {pixApiRegistering ? 'Cadastrando…' : 'Cadastrar webhook'}
              </button>
            </div>
          ) : null}
        </Section>

        <Section title="Gateway de pagamento">
          {plainField(
            'gateway_url',
            'url',
            'O endereço da API do gateway, como https://api.gateway.com.br.',
          )}
          {secret('gateway_secret_key', 'A chave que o gateway deu à loja.')}
        </Section>

        <Section title="Envio de e-mails">
          {secret(
            'smtp_url',
            'Como smtp://usuario:senha@servidor:587 ou smtps://usuario:senha@servidor:465. Sem ele, os e-mails ficam guardados como arquivos no servidor.',
          )}
          {plainField('smtp_from', 'email', 'O endereço que aparece como remetente dos e-mails.')}
          <div className="space-y-1">
            <button
              type="submit"
              form={TEST_EMAIL_FORM}
              className="admin-button-secondary"
              disabled={testing}
              aria-describedby={`${ID}-teste-email-dica`}
            >
              {testing ? 'Enviando…' : 'Enviar e-mail de teste'}
            </button>
            <p id={`${ID}-teste-email-dica`} className="text-sm text-slate-600">
              {`Envia uma mensagem curta para ${adminEmail} pelo servidor e remetente salvos. Ao salvar um servidor ou remetente novo, a loja envia o teste antes.`}
            </p>
          </div>
        </Section>

        <Section title="Frete por transportadora (Melhor Envio)">
          {secret(
            'melhor_envio_token',
            'Gerado em Melhor Envio › Integrações › Permissões de acesso. Com ele, o frete é cotado nas transportadoras.',
          )}
          {secret(
            'melhor_envio_webhook_secret',
            'O segredo do aplicativo, que assina os avisos de rastreio.',
          )}
        </Section>

        <SubmitButton busy={saving} busyLabel="Salvando…" className="admin-button-primary">
          Salvar conexões
        </SubmitButton>
      </Form>
      <Form id={REMOVE_FORM} method="post" action="/admin/payments" hidden>
        <input type="hidden" name="intent" value="save" />
      </Form>
      <Form id={PIX_API_FORM} method="post" action="/admin/payments" hidden />
      <Form id={TEST_EMAIL_FORM} method="post" action="/admin/payments" hidden>
        <input type="hidden" name="intent" value="test-email" />
      </Form>
    </div>
  );
}
