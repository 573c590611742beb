import { useFetcher, useSearchParams } from 'react-router';

import { ErrorSummary, FormField, STORE_FORM, SubmitButton } from '~/components/ui/form';
import type { FormReply } from '~/lib/form';
import {
  ORDER_LOOKUP_ANCHOR,
  ORDER_LOOKUP_CONTACT_MAX,
  ORDER_LOOKUP_MESSAGES,
  ORDER_LOOKUP_NOTICE_PARAM,
  ORDER_LOOKUP_NUMBER_MAX,
  ORDER_LOOKUP_SENT,
} from '~/modules/orders';

const LABELS = { contact: 'E-mail ou CPF', number: 'Número do pedido' } as const;

/**
 * 'Encontrar meu pedido' on the order history: an order placed on another device is found by its
 * number and the e-mail or CPF it was placed with, and its link goes to the e-mail on file. With
 * JavaScript a fetcher posts it and the answer shows here; without, the browser posts it and
 * comes back to this page with `?busca=enviada`, or gets the page with the refusal (`refused`).
 */
export function OrderLookupForm({ refused }: { refused?: FormReply }) {
  const fetcher = useFetcher<FormReply>();
  const [params] = useSearchParams();
  const reply = fetcher.data ?? refused;
  const sent = reply
    ? reply.ok
      ? reply.toast.message
      : null
    : params.get(ORDER_LOOKUP_NOTICE_PARAM) === ORDER_LOOKUP_SENT
      ? ORDER_LOOKUP_MESSAGES.sent
      : null;
  const failed = reply && !reply.ok ? reply : null;
  const busy = fetcher.state !== 'idle';

  return (
    <section
      id={ORDER_LOOKUP_ANCHOR}
      aria-labelledby={`${ORDER_LOOKUP_ANCHOR}-title`}
      data-testid="order-lookup"
      className="mt-8 flex scroll-mt-24 flex-col gap-3 rounded-card border border-card-border bg-card p-4"
    >
      <h2 id={`${ORDER_LOOKUP_ANCHOR}-title`} className="text-lg font-semibold">
        Encontrar meu pedido
      </h2>
      <p className="text-sm">
        Comprou em outro aparelho? Informe o e-mail ou o CPF usado na compra e o número do pedido,
        que está no e-mail de confirmação. Enviaremos o link do pedido para o e-mail cadastrado.
      </p>
      <p role="status" className={sent ? 'font-semibold' : 'sr-only'}>
        {sent ?? ''}
      </p>
      {failed && Object.keys(failed.fieldErrors).length === 0 ? (
        <ErrorSummary look={STORE_FORM} message={failed.toast.message} />
      ) : null}
      <fetcher.Form method="post" className="flex flex-col gap-3" noValidate>
        <FormField
          look={STORE_FORM}
          idPrefix="order-lookup"
          name="contact"
          label={LABELS.contact}
          error={failed?.fieldErrors.contact}
          announce
        >
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="email"
              required
              maxLength={ORDER_LOOKUP_CONTACT_MAX}
              defaultValue={failed?.values.contact}
              className="field"
            />
          )}
        </FormField>
        <FormField
          look={STORE_FORM}
          idPrefix="order-lookup"
          name="number"
          label={LABELS.number}
          hint="Como #1001."
          error={failed?.fieldErrors.number}
          announce
        >
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              required
              maxLength={ORDER_LOOKUP_NUMBER_MAX}
              defaultValue={failed?.values.number}
              className="field"
            />
          )}
        </FormField>
        <SubmitButton busy={busy} busyLabel="Buscando…" className="btn btn-primary self-start">
          Encontrar meu pedido
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
