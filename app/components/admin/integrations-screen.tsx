import { useEffect, useRef } from 'react';
import { Form, useNavigation } from 'react-router';

import { FormField, SubmitButton } from '~/components/ui/form';
import type { Toast } from '~/lib/toast';
import type { ConnectionSource } from '~/modules/connections';
import { ERP_MESSAGES, type ErpConnectionState } from '~/modules/erp';

import { ADMIN_FORM } from './form-look';
import { ToastFallback, useToastFrom } from './toaster';

type Reply = { ok: boolean; toast: Toast; fieldErrors?: Record<string, string> } | undefined;

const ID = 'integracoes';
const REMOVE_FORM = 'integracoes-remover';

const SOURCE_TEXT: Record<Exclude<ConnectionSource, null> | 'none', string> = {
  env: 'definido no servidor',
  admin: 'configurado',
  unreadable: 'digite de novo',
  none: 'não configurado',
};

function Badge({ source }: { source: ConnectionSource }) {
  return (
    <span className="ml-2 inline-flex rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">
      {SOURCE_TEXT[source ?? 'none']}
    </span>
  );
}

/** The connection's state in one sentence, as the dashboard says it too. */
function ConnectionStatus({ connection }: { connection: ErpConnectionState }) {
  const [text, look] =
    connection.state === 'connected'
      ? [ERP_MESSAGES.connected, 'border-green-300 bg-green-50 text-green-900']
      : connection.state === 'revoked'
        ? [ERP_MESSAGES.revoked, 'border-red-300 bg-red-50 text-red-900']
        : connection.state === 'disconnected'
          ? [ERP_MESSAGES.disconnected, 'border-slate-200 bg-slate-50 text-slate-800']
          : [ERP_MESSAGES.notConfigured, 'border-slate-200 bg-slate-50 text-slate-800'];
  return (
    <p
      role="status"
      data-testid="bling-status"
      className={`rounded-md border p-3 text-sm font-medium ${look}`}
    >
      {text}
    </p>
  );
}

export function IntegrationsScreen({
  clientId,
  sources,
  canStoreSecrets,
  connection,
  callbackUrl,
  webhookUrl,
  connectHref,
  reply,
}: {
  clientId: string;
  sources: { bling_client_id: ConnectionSource; bling_client_secret: ConnectionSource };
  canStoreSecrets: boolean;
  connection: ErpConnectionState;
  callbackUrl: string;
  webhookUrl: string;
  connectHref: string;
  reply: unknown;
}) {
  const answer = reply as Reply;
  useToastFrom(answer);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.reset(), [clientId, sources]);
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const errors = answer?.ok === false ? (answer.fieldErrors ?? {}) : {};
  const secretSource = sources.bling_client_secret;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold">{ERP_MESSAGES.title}</h1>
        <p className="mt-1 text-sm text-slate-600">
          Emita as notas fiscais (NF-e) dos pedidos pelo Bling: os pedidos pagos vão para o Bling, e
          a nota autorizada aparece no pedido, no e-mail do cliente e na etiqueta do Melhor Envio.
        </p>
      </div>
      <ToastFallback toast={answer?.toast} />
      <section aria-labelledby={`${ID}-bling`} className="admin-card space-y-4">
        <h2 id={`${ID}-bling`} className="text-lg font-semibold">
          Bling
        </h2>
        <ConnectionStatus connection={connection} />
        <p className="text-sm text-slate-700">
          No Bling, em Central de Extensões › Área do Integrador, crie um aplicativo privado com os
          escopos de pedidos de venda, contatos, produtos e notas fiscais, e use como link de
          redirecionamento:
        </p>
        <p className="text-sm">
          <code className="break-all rounded bg-slate-100 px-1" data-testid="callback-url">
            {callbackUrl}
          </code>
        </p>
        <p className="text-sm text-slate-700">
          Nos webhooks do aplicativo, cadastre as notas fiscais para este endereço:{' '}
          <code className="break-all rounded bg-slate-100 px-1">{webhookUrl}</code>
        </p>
        <Form ref={form} method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="save" />
          <FormField
            look={ADMIN_FORM}
            idPrefix={ID}
            name="bling_client_id"
            label={
              <>
                Client Id
                <Badge source={sources.bling_client_id} />
              </>
            }
            error={errors.bling_client_id}
          >
            {(control) => (
              <input
                {...control}
                type="text"
                autoComplete="off"
                spellCheck={false}
                defaultValue={clientId}
                disabled={sources.bling_client_id === 'env'}
                className="admin-input"
              />
            )}
          </FormField>
          <FormField
            look={ADMIN_FORM}
            idPrefix={ID}
            name="bling_client_secret"
            label={
              <>
                Client Secret
                <Badge source={secretSource} />
              </>
            }
            hint={
              !canStoreSecrets
                ? ERP_MESSAGES.noKey
                : secretSource === 'admin'
                  ? 'Guardado criptografado e nunca mostrado. Digite um novo para substituí-lo.'
                  : 'Copiado do aplicativo no Bling. Também assina os avisos das notas.'
            }
            error={errors.bling_client_secret}
          >
            {(control) => (
              <div className="flex flex-wrap gap-2">
                <input
                  {...control}
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  disabled={secretSource === 'env' || !canStoreSecrets}
                  placeholder={secretSource === 'admin' ? '••••••••' : undefined}
                  className="admin-input min-w-0 flex-1"
                />
                {secretSource === 'admin' ? (
                  <button
                    type="submit"
                    form={REMOVE_FORM}
                    name="remove"
                    value="bling_client_secret"
                    className="admin-button-secondary"
                    aria-label="Remover Client Secret"
                  >
                    Remover
                  </button>
                ) : null}
              </div>
            )}
          </FormField>
          <SubmitButton busy={saving} busyLabel="Salvando…" className="admin-button-primary">
            Salvar
          </SubmitButton>
        </Form>
        {connection.state === 'not-configured' ? null : (
          <a href={connectHref} className="admin-button-primary inline-block">
            {ERP_MESSAGES.connect}
          </a>
        )}
      </section>
      <Form id={REMOVE_FORM} method="post" hidden>
        <input type="hidden" name="intent" value="remove" />
      </Form>
    </div>
  );
}
