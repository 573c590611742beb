import { useState } from 'react';

import { FormField } from '~/components/ui/form';
import type { ProductOptions } from '~/modules/catalog';
import { COUPON_KINDS } from '~/modules/coupons';
import {
  COUPON_CODE_MAX,
  COUPON_FORM_REPEATABLE,
  COUPON_KIND_LABELS,
  couponFormSchema,
  type CouponFormValues,
} from '~/modules/coupons/index.admin';

import { ADMIN_FORM } from './form-look';
import { FormDialog } from './form-dialog';
import { ProductPicker } from './product-picker';

type Choice = { id: string; name: string };

const EMPTY: CouponFormValues = {
  code: '',
  kind: 'percent',
  value: '',
  minSubtotal: '',
  startsAt: '',
  endsAt: '',
  usageLimit: '',
  usageLimitPerCustomer: '',
  firstPurchaseOnly: false,
  active: true,
  products: [],
  categoryIds: [],
};

const VALUE_LABELS = {
  percent: 'Desconto (%)',
  fixed: 'Desconto (R$)',
  free_shipping: 'Desconto',
} as const;

const VALUE_HINTS = {
  percent: 'De 1 a 100.',
  fixed: 'Como 20,00.',
  free_shipping: 'O frete grátis não usa este campo.',
} as const;

/** 'Novo cupom' or 'Editar': a button opening the coupon's form. */
export function CouponFormDialog(
  props: { products: ProductOptions; categories: Choice[] } & (
    { mode: 'create'; id: string } | { mode: 'edit'; id: string; values: CouponFormValues }
  ),
) {
  const editing = props.mode === 'edit';
  const values = editing ? props.values : EMPTY;
  const [kind, setKind] = useState(values.kind);
  return (
    <FormDialog
      schema={couponFormSchema}
      repeatable={COUPON_FORM_REPEATABLE}
      title={editing ? `Editar cupom ${values.code}` : 'Novo cupom'}
      openLabel={editing ? 'Editar' : 'Novo cupom'}
      openClassName={editing ? 'admin-button-secondary' : 'admin-button-primary'}
      openAriaLabel={editing ? `Editar cupom ${values.code}` : undefined}
      submitLabel="Salvar"
      hidden={{ intent: editing ? 'update' : 'create', id: props.id }}
      resetOnClose={editing}
    >
      {({ idPrefix, errors }) => (
        <>
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="code"
            label="Código"
            hint="Letras e números, sem espaços. O cliente pode digitar em maiúsculas ou minúsculas."
            error={errors.code}
          >
            {(control) => (
              <input
                {...control}
                required
                maxLength={COUPON_CODE_MAX}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                defaultValue={values.code}
                className="admin-input uppercase"
              />
            )}
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              look={ADMIN_FORM}
              idPrefix={idPrefix}
              name="kind"
              label="Tipo"
              error={errors.kind}
            >
              {(control) => (
                <select
                  {...control}
                  defaultValue={values.kind}
                  onChange={(event) => setKind(event.currentTarget.value as typeof kind)}
                  className="admin-input"
                >
                  {COUPON_KINDS.map((option) => (
                    <option key={option} value={option}>
                      {COUPON_KIND_LABELS[option]}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            {/* Always there, so the form works before JavaScript; its label follows the kind. */}
            <FormField
              look={ADMIN_FORM}
              idPrefix={idPrefix}
              name="value"
              label={VALUE_LABELS[kind]}
              hint={VALUE_HINTS[kind]}
              error={errors.value}
            >
              {(control) => (
                <input
                  {...control}
                  inputMode={kind === 'percent' ? 'numeric' : 'decimal'}
                  autoComplete="off"
                  maxLength={20}
                  defaultValue={values.value}
                  className="admin-input"
                />
              )}
            </FormField>
          </div>
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="minSubtotal"
            label="Pedido mínimo em R$ (opcional)"
            hint="O subtotal dos produtos a partir do qual o cupom vale."
            error={errors.minSubtotal}
          >
            {(control) => (
              <input
                {...control}
                inputMode="decimal"
                autoComplete="off"
                maxLength={20}
                defaultValue={values.minSubtotal}
                className="admin-input"
              />
            )}
          </FormField>
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="admin-label">Validade (no horário da loja; opcional)</legend>
            <FormField
              look={ADMIN_FORM}
              idPrefix={idPrefix}
              name="startsAt"
              label="Início"
              error={errors.startsAt}
            >
              {(control) => (
                <input
                  {...control}
                  type="datetime-local"
                  defaultValue={values.startsAt}
                  className="admin-input"
                />
              )}
            </FormField>
            <FormField
              look={ADMIN_FORM}
              idPrefix={idPrefix}
              name="endsAt"
              label="Fim"
              error={errors.endsAt}
            >
              {(control) => (
                <input
                  {...control}
                  type="datetime-local"
                  defaultValue={values.endsAt}
                  className="admin-input"
                />
              )}
            </FormField>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              look={ADMIN_FORM}
              idPrefix={idPrefix}
              name="usageLimit"
              label="Limite de usos (opcional)"
              error={errors.usageLimit}
            >
              {(control) => (
                <input
                  {...control}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={9}
                  defaultValue={values.usageLimit}
                  className="admin-input"
                />
              )}
            </FormField>
            <FormField
              look={ADMIN_FORM}
              idPrefix={idPrefix}
              name="usageLimitPerCustomer"
              label="Usos por cliente (opcional)"
              hint="Contados pelo CPF e pelo e-mail."
              error={errors.usageLimitPerCustomer}
            >
              {(control) => (
                <input
                  {...control}
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={9}
                  defaultValue={values.usageLimitPerCustomer}
                  className="admin-input"
                />
              )}
            </FormField>
          </div>
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="firstPurchaseOnly"
            label="Só na primeira compra do cliente"
            layout="check"
            error={errors.firstPurchaseOnly}
          >
            {(control) => (
              <input
                {...control}
                type="checkbox"
                defaultChecked={values.firstPurchaseOnly}
                className="mt-1 h-4 w-4"
              />
            )}
          </FormField>
          <ProductPicker
            idPrefix={idPrefix}
            name="productIds"
            legend="Só nos produtos (opcional)"
            hint="Sem produtos nem categorias escolhidos, o cupom vale para a loja toda."
            multiple
            initial={props.products}
            chosen={values.products}
            error={errors.productIds}
          />
          <Checklist
            idPrefix={idPrefix}
            name="categoryIds"
            legend="Só nas categorias (opcional)"
            options={props.categories}
            chosen={values.categoryIds}
            empty="Nenhuma categoria cadastrada."
            error={errors.categoryIds}
          />
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="active"
            label="Ativo"
            hint="Desativado, o cupom é recusado na loja."
            layout="check"
            error={errors.active}
          >
            {(control) => (
              <input
                {...control}
                type="checkbox"
                defaultChecked={values.active}
                className="mt-1 h-4 w-4"
              />
            )}
          </FormField>
        </>
      )}
    </FormDialog>
  );
}

/** A group of checkboxes sending `name` once per checked item. */
function Checklist({
  idPrefix,
  name,
  legend,
  options,
  chosen,
  empty,
  error,
}: {
  idPrefix: string;
  name: string;
  legend: string;
  options: Choice[];
  chosen: readonly string[];
  empty: string;
  error?: string;
}) {
  const errorId = `${idPrefix}-${name}-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="admin-label">{legend}</legend>
      {options.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <ul className="max-h-40 space-y-1 overflow-y-auto rounded-md border border-slate-300 p-2">
          {options.map((option) => (
            <li key={option.id} className="flex items-start gap-2">
              <input
                id={`${idPrefix}-${name}-${option.id}`}
                type="checkbox"
                name={name}
                value={option.id}
                defaultChecked={chosen.includes(option.id)}
                className="mt-1 h-4 w-4 shrink-0"
              />
              <label
                htmlFor={`${idPrefix}-${name}-${option.id}`}
                className="text-sm break-words text-slate-800"
              >
                {option.name}
              </label>
            </li>
          ))}
        </ul>
      )}
      {error ? (
        <p id={errorId} className={ADMIN_FORM.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
