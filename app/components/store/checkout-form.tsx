import { useCallback, useEffect, useRef, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';

import { ErrorSummary, FormField, STORE_FORM, SubmitButton } from '~/components/ui/form';
import { Money } from '~/components/ui/money';
import { useCheck } from '~/lib/use-check';
import { BRAZIL_STATES, MASKED_LENGTH, maskCep } from '~/modules/checkout';
import type { ShippingEstimate } from '~/modules/orders';
import type { PaymentMethod } from '~/modules/payments';
import { CHECKOUT_RECOVERY_TEXTS, RECOVERY_OPT_OUT_FIELD } from '~/modules/recovery';
import { APPROXIMATE_SHIPPING } from '~/modules/shipping';

import type * as CheckoutAssist from './checkout-assist';
import { ShippingOptionText } from './shipping-estimate';

export type CheckoutValues = Partial<Record<string, string>>;
export type FieldErrors = Partial<Record<string, string>>;

// The labels, by field: the fields and the error summary's links say the same.
const LABELS: Record<string, string> = {
  customerName: 'Nome completo',
  customerEmail: 'E-mail',
  customerCpf: 'CPF',
  customerPhone: 'Telefone',
  zipCode: 'CEP',
  street: 'Rua',
  number: 'Número',
  complement: 'Complemento',
  neighborhood: 'Bairro',
  city: 'Cidade',
  state: 'Estado',
  couponCode: 'Cupom de desconto',
  shippingOption: 'Forma de envio',
};

/** The checkout form's id: the coupon field in the summary belongs to it (its `form`). */
export const CHECKOUT_FORM_ID = 'checkout-form';

interface FieldProps {
  name: string;
  values: CheckoutValues;
  errors: FieldErrors;
  autoComplete?: string;
  type?: string;
  inputMode?: React.HTMLAttributes<HTMLInputElement>['inputMode'];
  mask?: (value: string) => string;
  maxLength?: number;
  required?: boolean;
  placeholder?: string;
  onValue?: (value: string) => void;
}

/** A text field of the checkout: the kit's field with the input, masked as it is typed. */
function TextField({ name, values, errors, mask, required = true, onValue, ...input }: FieldProps) {
  return (
    <FormField
      look={STORE_FORM}
      idPrefix="checkout"
      name={name}
      label={
        <>
          {LABELS[name]}
          {required ? null : <span className="font-normal"> (opcional)</span>}
        </>
      }
      error={errors[name]}
    >
      {(control) => (
        <input
          {...control}
          defaultValue={values[name] ?? ''}
          required={required}
          className="field"
          onInput={(event) => {
            const target = event.currentTarget;
            if (mask) target.value = mask(target.value);
            onValue?.(target.value);
          }}
          {...input}
        />
      )}
    </FormField>
  );
}

type Assist = typeof CheckoutAssist;

/**
 * The form's checks and the CPF's and phone's masks (checkout-assist.ts), fetched the first time
 * the shopper touches the form (`load`). `assist` is null until they arrive; `loaded` has them at
 * once, for a submission waiting on them.
 */
function useCheckoutAssist(form: React.RefObject<HTMLFormElement | null>) {
  const [assist, setAssist] = useState<Assist | null>(null);
  const loaded = useRef<Assist | null>(null);
  const asking = useRef<Promise<Assist | null> | null>(null);
  const load = useCallback(
    () =>
      (asking.current ??= import('./checkout-assist').then(
        (module) => {
          // What was typed before the masks arrived is masked now.
          for (const [name, mask] of Object.entries(module.MASKS)) {
            const input = form.current?.elements.namedItem(name) as HTMLInputElement | null;
            if (input && mask) input.value = mask(input.value);
          }
          loaded.current = module;
          setAssist(module);
          return module;
        },
        () => {
          // Offline for a moment: the next touch asks again; meanwhile the server checks the form.
          asking.current = null;
          return null;
        },
      )),
    [form],
  );
  return { assist, loaded, load };
}

/**
 * Once the e-mail field holds a plausible address, what the shopper typed of their contact is
 * kept with the cart as each field is left (the native change event; checkout-assist's
 * saveContact), for the one e-mail an abandoned checkout gets.
 */
function useContactSaving(
  form: React.RefObject<HTMLFormElement | null>,
  load: () => Promise<Assist | null>,
) {
  useEffect(() => {
    const element = form.current;
    // A field left before checkout-assist arrived (a fast typist, a slow phone) is saved once it
    // has: the first touch started loading it.
    const save = (event: Event) => {
      const target = event.target;
      void load().then((assist) => assist?.saveContact(element!, target));
    };
    element?.addEventListener('change', save);
    return () => element?.removeEventListener('change', save);
  }, [form, load]);
}

type CepState = { kind: 'idle' | 'loading' | 'found' | 'failed'; message: string };

/** Fills the address from the CEP through our server; the fields stay editable whatever happens. */
function useCepLookup(form: React.RefObject<HTMLFormElement | null>) {
  const [state, setState] = useState<CepState>({ kind: 'idle', message: '' });
  const last = useRef('');
  const lookup = async (value: string, { focus = true } = {}) => {
    const digits = value.replace(/\D/g, '');
    if (digits.length !== 8 || digits === last.current) return;
    last.current = digits;
    setState({ kind: 'loading', message: 'Buscando endereço...' });
    try {
      const response = await fetch(`/api/cep/${digits}`, {
        headers: { Accept: 'application/json' },
      });
      const body = (await response.json()) as
        | { ok: true; address: Record<'street' | 'neighborhood' | 'city' | 'state', string> }
        | { ok: false; message: string };
      if (digits !== last.current) return;
      if (!body.ok) {
        // A CEP the service does not know stays known; after an outage, typing it again retries.
        if (response.status !== 400 && response.status !== 404) last.current = '';
        setState({ kind: 'failed', message: body.message });
        return;
      }
      const elements = form.current?.elements;
      for (const key of ['street', 'neighborhood', 'city', 'state'] as const) {
        const field = elements?.namedItem(key) as HTMLInputElement | HTMLSelectElement | null;
        if (field && body.address[key]) field.value = body.address[key];
      }
      setState({ kind: 'found', message: 'Endereço encontrado. Confira e informe o número.' });
      // Not when the page filled the CEP in: focus would jump past the fields above. Nor when
      // the shopper has moved on while the answer came: what they type would land in 'Número'.
      if (!focus || document.activeElement !== elements?.namedItem('zipCode')) return;
      (
        elements?.namedItem(body.address.street ? 'number' : 'street') as HTMLElement | null
      )?.focus();
    } catch {
      if (digits !== last.current) return;
      last.current = '';
      setState({
        kind: 'failed',
        message: 'Não foi possível buscar o CEP agora. Preencha o endereço manualmente.',
      });
    }
  };
  return { state, lookup };
}

/** One way to pay as the checkout offers it. */
export interface MethodOffer {
  method: PaymentMethod;
  /** The order's total paid this way (only PIX takes the PIX discount). */
  totalCents: number;
  /** Card instalments the store allows on this total, if more than one. */
  installments: number | null;
}

const METHOD_TEXTS: Record<PaymentMethod, { title: string; text: string }> = {
  pix: { title: 'PIX', text: 'Aprovação na hora, pelo app do seu banco.' },
  credit_card: {
    title: 'Cartão de crédito',
    text: 'Você paga na página segura do Mercado Pago e volta para a loja.',
  },
  boleto: {
    title: 'Boleto',
    text: 'Gerado no Mercado Pago; o pedido é confirmado quando o banco compensa o pagamento.',
  },
};

/** The sandbox's cards and boleto: no provider's page, the tester settles them on the order's. */
const TEST_MODE_TEXTS: Record<PaymentMethod, string> = {
  pix: METHOD_TEXTS.pix.text,
  credit_card:
    'Modo de teste: nenhum cartão é pedido; na página do pedido você escolhe as parcelas e simula a resposta do banco.',
  boleto: 'Modo de teste: nenhum boleto é emitido; na página do pedido você simula o pagamento.',
};

/** The carriers' side of the checkout: the CEP's options (or the store's rule), while asked. */
export interface CheckoutShipping {
  estimate: Extract<ShippingEstimate, { ok: true }> | null;
  loading: boolean;
  /** The option chosen (the cheapest until the shopper picks). */
  chosenId: string | null;
  onChoose: (id: string) => void;
  /** A complete CEP typed: its options are asked for. */
  onCep: (digits: string) => void;
}

/**
 * The checkout form: a plain POST that works before JavaScript loads; once the shopper has started
 * on it, the same zod schema as the server checks it first, so errors show at once, beside their
 * fields. It lays out the page below the title: its fields, the order's summary and its button.
 */
export function CheckoutForm({
  idempotencyKey,
  values,
  errors: serverErrors,
  error: serverError,
  payNow,
  submitLabel,
  totalCents,
  methods,
  method,
  onMethod,
  shipping,
  testMode,
  orderSummary,
}: {
  idempotencyKey: string;
  values: CheckoutValues;
  errors: FieldErrors;
  error?: string;
  /** An unpaid order of this browser the refusal asks to pay: 'Pagar agora' beside it. */
  payNow?: string;
  submitLabel: string;
  /** The order's total, repeated beside the button on phones, where the summary is far below. */
  totalCents: number;
  /** The ways to pay this store offers, each with what the order costs paid that way. */
  methods: readonly MethodOffer[];
  method: PaymentMethod;
  onMethod: (method: PaymentMethod) => void;
  /** Null when the store's own rule prices shipping: nothing to choose. */
  shipping: CheckoutShipping | null;
  /** The sandbox takes the payment: each way to pay says how it is tried. */
  testMode: boolean;
  /**
   * The order's summary, with the coupon's field: beside the form on a desktop, and on a phone
   * between the form and its button, where the shopper looks over the order before placing it.
   */
  orderSummary: React.ReactNode;
}) {
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const submitting =
    navigation.state !== 'idle' &&
    navigation.formAction === '/checkout' &&
    !navigation.formData?.has('intent');
  const { assist, loaded, load } = useCheckoutAssist(form);
  const { errors: clientErrors, check } = useCheck(
    (data) => loaded.current?.parseCheckout(data) ?? null,
  );
  // A submission that comes before the checks (no field touched yet) waits for them and is sent
  // again; if they cannot be fetched (offline), it goes unchecked and the server checks it.
  const early = useRef<'none' | 'waiting' | 'unchecked'>('none');
  const errors: FieldErrors = clientErrors ?? serverErrors;
  const summary = clientErrors ? 'Confira os campos destacados.' : serverError;
  const cep = useCepLookup(form);
  useContactSaving(form, load);

  // A CEP the page started with (from the shopper's shipping estimate) fills the address too,
  // unless the address is already there.
  const lookupCep = cep.lookup;
  useEffect(() => {
    const elements = form.current?.elements;
    const zipCode = elements?.namedItem('zipCode') as HTMLInputElement | null;
    const street = elements?.namedItem('street') as HTMLInputElement | null;
    if (zipCode?.value && !street?.value) void lookupCep(zipCode.value, { focus: false });
    // Once, on the first render: later CEPs are typed and looked up as they are.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // After a refused submission (with or without JavaScript), the first wrong field gets focus.
  useEffect(() => {
    const first = Object.keys(errors)[0];
    if (first) (form.current?.elements.namedItem(first) as HTMLElement | null)?.focus();
  }, [errors]);

  const common = { values, errors };
  return (
    <Form
      ref={form}
      id={CHECKOUT_FORM_ID}
      method="post"
      action="/checkout"
      noValidate
      onFocus={() => void load()}
      onPointerDown={() => void load()}
      onSubmit={(event) => {
        // 'Aplicar' and 'Remover cupom' send the form for the coupon alone: the server reads
        // nothing else of it.
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        if (submitter?.getAttribute('name') === 'intent') return;
        if (loaded.current || early.current === 'unchecked') {
          check(event);
          return;
        }
        event.preventDefault();
        if (early.current === 'waiting') return;
        early.current = 'waiting';
        void load().then((module) => {
          early.current = module ? 'none' : 'unchecked';
          form.current?.requestSubmit(submitter);
        });
      }}
      className="grid items-start gap-6 lg:grid-cols-[1fr_24rem]"
      aria-describedby={summary ? 'checkout-error' : undefined}
    >
      <div className="flex flex-col gap-6">
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        {summary ? (
          <ErrorSummary
            look={STORE_FORM}
            id="checkout-error"
            message={summary}
            errors={errors}
            labels={LABELS}
            idPrefix="checkout"
          >
            {payNow && !clientErrors ? (
              <Link
                to={`/order-confirmation?${new URLSearchParams({ orderId: payNow })}`}
                className="btn btn-success"
              >
                Pagar agora
              </Link>
            ) : null}
          </ErrorSummary>
        ) : null}

        <fieldset className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4">
          <legend className="px-1 text-lg font-semibold">Dados pessoais</legend>
          <TextField {...common} name="customerName" autoComplete="name" />
          <TextField
            {...common}
            name="customerEmail"
            type="email"
            autoComplete="email"
            inputMode="email"
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              {...common}
              name="customerCpf"
              inputMode="numeric"
              autoComplete="off"
              mask={assist?.MASKS.customerCpf}
              maxLength={MASKED_LENGTH.cpf}
              placeholder="000.000.000-00"
            />
            <TextField
              {...common}
              name="customerPhone"
              type="tel"
              autoComplete="tel-national"
              inputMode="tel"
              mask={assist?.MASKS.customerPhone}
              maxLength={MASKED_LENGTH.phone}
              placeholder="(00) 00000-0000"
            />
          </div>
          <p id="checkout-recovery-notice" className="text-sm">
            {CHECKOUT_RECOVERY_TEXTS.notice}
          </p>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name={RECOVERY_OPT_OUT_FIELD}
              defaultChecked={values[RECOVERY_OPT_OUT_FIELD] === 'on'}
              aria-describedby="checkout-recovery-notice"
            />
            {CHECKOUT_RECOVERY_TEXTS.optOut}
          </label>
        </fieldset>

        <fieldset className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4">
          <legend className="px-1 text-lg font-semibold">Endereço de entrega</legend>
          <div className="grid gap-4 sm:grid-cols-[12rem_1fr] sm:items-end">
            <TextField
              {...common}
              name="zipCode"
              inputMode="numeric"
              autoComplete="postal-code"
              mask={maskCep}
              maxLength={MASKED_LENGTH.zipCode}
              placeholder="00000-000"
              onValue={(value) => {
                void cep.lookup(value);
                const digits = value.replace(/\D/g, '');
                if (digits.length === 8) shipping?.onCep(digits);
              }}
            />
            <p role="status" className="text-sm" data-testid="cep-status">
              {cep.state.message}
            </p>
          </div>
          <TextField {...common} name="street" autoComplete="address-line1" />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField {...common} name="number" inputMode="text" />
            <TextField
              {...common}
              name="complement"
              autoComplete="address-line2"
              required={false}
            />
          </div>
          <TextField {...common} name="neighborhood" autoComplete="address-level3" />
          <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
            <TextField {...common} name="city" autoComplete="address-level2" />
            <FormField
              look={STORE_FORM}
              idPrefix="checkout"
              name="state"
              label={LABELS.state}
              error={errors.state}
            >
              {(control) => (
                <select
                  {...control}
                  required
                  defaultValue={values.state ?? ''}
                  autoComplete="address-level1"
                  className="field"
                >
                  <option value="">Selecione</option>
                  {BRAZIL_STATES.map((state) => (
                    <option key={state.code} value={state.code}>
                      {state.name} ({state.code})
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          </div>
        </fieldset>

        {shipping ? <ShippingChoice shipping={shipping} error={errors.shippingOption} /> : null}

        <fieldset
          className="flex flex-col gap-3 rounded-card border border-card-border bg-card p-4"
          aria-describedby={errors.paymentMethod ? 'checkout-paymentMethod-error' : undefined}
        >
          <legend className="px-1 text-lg font-semibold">Forma de pagamento</legend>
          {methods.map((offer) => (
            <label key={offer.method} className="flex items-start gap-3">
              <input
                type="radio"
                name="paymentMethod"
                value={offer.method}
                checked={offer.method === method}
                onChange={() => onMethod(offer.method)}
                className="mt-1"
              />
              <span>
                <strong>{METHOD_TEXTS[offer.method].title}</strong>:{' '}
                <Money cents={offer.totalCents} className="font-semibold" />
                {offer.installments ? ` em até ${offer.installments}x` : ''}.{' '}
                {testMode ? TEST_MODE_TEXTS[offer.method] : METHOD_TEXTS[offer.method].text}
              </span>
            </label>
          ))}
          {errors.paymentMethod ? (
            <p id="checkout-paymentMethod-error" className="text-sm text-danger">
              {errors.paymentMethod}
            </p>
          ) : null}
        </fieldset>
      </div>
      <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">{orderSummary}</div>
      <div className="flex flex-col gap-6">
        <p
          className="flex items-baseline justify-between text-lg font-semibold lg:hidden"
          data-testid="checkout-submit-total"
        >
          <span>Total</span>
          <Money cents={totalCents} />
        </p>
        <SubmitButton
          busy={submitting}
          busyLabel="Processando..."
          className="btn btn-success w-full text-lg"
        >
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

/**
 * 'Forma de envio': a radio per carrier option, each sent as its service and the price shown
 * ('2:4590'), so the server can tell when the price changed since. The store's rule, when the
 * carrier did not answer, is said to be approximate.
 */
function ShippingChoice({ shipping, error }: { shipping: CheckoutShipping; error?: string }) {
  const offer = shipping.estimate?.shipping;
  return (
    <fieldset
      className="flex flex-col gap-3 rounded-card border border-card-border bg-card p-4"
      aria-describedby={error ? 'checkout-shippingOption-error' : undefined}
      aria-busy={shipping.loading || undefined}
      data-testid="shipping-choice"
    >
      <legend className="px-1 text-lg font-semibold">{LABELS.shippingOption}</legend>
      {shipping.loading ? (
        <p role="status">Calculando o frete…</p>
      ) : !offer ? (
        <p>Informe o CEP para ver as formas de envio.</p>
      ) : offer.kind === 'carrier' ? (
        offer.options.map((option) => (
          <label key={option.id} className="flex items-start gap-3">
            <input
              type="radio"
              name="shippingOption"
              value={`${option.id}:${option.chargedCents}`}
              checked={option.id === shipping.chosenId}
              onChange={() => shipping.onChoose(option.id)}
              className="mt-1"
            />
            <span>
              <ShippingOptionText option={option} />
            </span>
          </label>
        ))
      ) : (
        <p data-testid="shipping-approximate">
          {offer.approximate
            ? `${APPROXIMATE_SHIPPING}: o frete segue a regra da loja.`
            : 'O frete segue a regra da loja.'}
        </p>
      )}
      {error ? (
        <p id="checkout-shippingOption-error" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
