import { useEffect, useRef, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';

import { parseFormData } from '~/lib/form';
import {
  BRAZIL_STATES,
  checkoutFormSchema,
  MASKED_LENGTH,
  maskCep,
  maskCpf,
  maskPhone,
} from '~/modules/checkout';

export type CheckoutValues = Partial<Record<string, string>>;
export type FieldErrors = Partial<Record<string, string>>;

interface FieldProps {
  name: string;
  label: string;
  values: CheckoutValues;
  errors: FieldErrors;
  autoComplete?: string;
  type?: string;
  inputMode?: React.HTMLAttributes<HTMLInputElement>['inputMode'];
  mask?: (value: string) => string;
  maxLength?: number;
  required?: boolean;
  placeholder?: string;
  className?: string;
  onValue?: (value: string) => void;
}

function Field({
  name,
  label,
  values,
  errors,
  mask,
  required = true,
  className = '',
  onValue,
  ...input
}: FieldProps) {
  const error = errors[name];
  const id = `checkout-${name}`;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
        {required ? null : <span className="font-normal"> (opcional)</span>}
      </label>
      <input
        id={id}
        name={name}
        defaultValue={values[name] ?? ''}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="field"
        onInput={(event) => {
          const target = event.currentTarget;
          if (mask) target.value = mask(target.value);
          onValue?.(target.value);
        }}
        {...input}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-semibold text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
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
      // Not when the page filled the CEP in: focus would jump past the fields above.
      if (!focus) return;
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

/**
 * The checkout form: a plain POST that works before JavaScript loads; once it has, the same zod
 * schema as the server checks it first, so errors show at once, beside their fields.
 */
export function CheckoutForm({
  idempotencyKey,
  values,
  errors: serverErrors,
  error: serverError,
  payNow,
  submitLabel,
}: {
  idempotencyKey: string;
  values: CheckoutValues;
  errors: FieldErrors;
  error?: string;
  /** An unpaid order of this browser the refusal asks to pay: 'Pagar Agora' beside it. */
  payNow?: string;
  submitLabel: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formAction === '/checkout';
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors;
  const summary = clientErrors ? 'Confira os campos destacados.' : serverError;
  const cep = useCepLookup(form);

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

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const parsed = parseFormData(new FormData(event.currentTarget), checkoutFormSchema);
    if (parsed.ok) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors({ ...parsed.fieldErrors });
  };

  const common = { values, errors };
  return (
    <Form
      ref={form}
      method="post"
      action="/checkout"
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-6"
      aria-describedby={summary ? 'checkout-error' : undefined}
    >
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {summary ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-3 rounded-card border-l-4 border-danger bg-card p-4"
        >
          <p id="checkout-error" className="font-semibold">
            {summary}
          </p>
          {payNow && !clientErrors ? (
            <Link
              to={`/order-confirmation?${new URLSearchParams({ orderId: payNow })}`}
              className="btn btn-success"
            >
              Pagar Agora
            </Link>
          ) : null}
        </div>
      ) : null}

      <fieldset className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4">
        <legend className="px-1 text-lg font-semibold">Dados pessoais</legend>
        <Field {...common} name="customerName" label="Nome completo" autoComplete="name" />
        <Field
          {...common}
          name="customerEmail"
          label="E-mail"
          type="email"
          autoComplete="email"
          inputMode="email"
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            {...common}
            name="customerCpf"
            label="CPF"
            inputMode="numeric"
            autoComplete="off"
            mask={maskCpf}
            maxLength={MASKED_LENGTH.cpf}
            placeholder="000.000.000-00"
          />
          <Field
            {...common}
            name="customerPhone"
            label="Telefone"
            type="tel"
            autoComplete="tel-national"
            inputMode="tel"
            mask={maskPhone}
            maxLength={MASKED_LENGTH.phone}
            placeholder="(00) 00000-0000"
          />
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-4 rounded-card border border-card-border bg-card p-4">
        <legend className="px-1 text-lg font-semibold">Endereço de entrega</legend>
        <div className="grid gap-4 sm:grid-cols-[12rem_1fr] sm:items-end">
          <Field
            {...common}
            name="zipCode"
            label="CEP"
            inputMode="numeric"
            autoComplete="postal-code"
            mask={maskCep}
            maxLength={MASKED_LENGTH.zipCode}
            placeholder="00000-000"
            onValue={(value) => void cep.lookup(value)}
          />
          <p role="status" className="text-sm" data-testid="cep-status">
            {cep.state.message}
          </p>
        </div>
        <Field {...common} name="street" label="Rua" autoComplete="address-line1" />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field {...common} name="number" label="Número" inputMode="text" />
          <Field
            {...common}
            name="complement"
            label="Complemento"
            autoComplete="address-line2"
            required={false}
          />
        </div>
        <Field {...common} name="neighborhood" label="Bairro" autoComplete="address-level3" />
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <Field {...common} name="city" label="Cidade" autoComplete="address-level2" />
          <div className="flex flex-col gap-1">
            <label htmlFor="checkout-state" className="text-sm font-semibold">
              Estado
            </label>
            <select
              id="checkout-state"
              name="state"
              required
              defaultValue={values.state ?? ''}
              autoComplete="address-level1"
              aria-invalid={errors.state ? true : undefined}
              aria-describedby={errors.state ? 'checkout-state-error' : undefined}
              className="field"
            >
              <option value="">Selecione</option>
              {BRAZIL_STATES.map((state) => (
                <option key={state.code} value={state.code}>
                  {state.name} ({state.code})
                </option>
              ))}
            </select>
            {errors.state ? (
              <p id="checkout-state-error" className="text-sm font-semibold text-danger">
                {errors.state}
              </p>
            ) : null}
          </div>
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-3 rounded-card border border-card-border bg-card p-4">
        <legend className="px-1 text-lg font-semibold">Forma de pagamento</legend>
        <label className="flex items-center gap-3">
          <input type="radio" name="paymentMethod" value="pix" defaultChecked />
          <span>
            <strong>PIX</strong> — aprovação na hora, pelo app do seu banco.
          </span>
        </label>
      </fieldset>

      <button type="submit" className="btn btn-success w-full text-lg" disabled={submitting}>
        {submitting ? 'Processando...' : submitLabel}
      </button>
    </Form>
  );
}
