import { useEffect, useRef } from 'react';
import { Form, Link, useFetcher } from 'react-router';

import { ErrorSummary, FormField, STORE_FORM } from '~/components/ui/form';
import { Money } from '~/components/ui/money';
import type { FormReply } from '~/lib/form';
import { replaceWishlist, useWishlistIds } from '~/lib/wishlist';
import { BRAZIL_STATES, maskCep } from '~/modules/checkout';
import { SHOPPER_STATUS_LABELS, type OrderStatus } from '~/modules/orders';
import {
  addressLine,
  DATA_EXPORT_PATH,
  SHOPPER_PREFERENCES,
  SIGN_OUT_PATH,
  type SavedAddress,
} from '~/modules/shoppers';

export interface AccountView {
  email: string;
  orders: {
    id: string;
    number: string;
    status: OrderStatus;
    placedAt: string;
    totalCents: number;
    lines: { name: string; quantity: number }[];
    accessKey: string;
  }[];
  addresses: SavedAddress[];
  favorites: { id: string; name: string }[];
  favoriteIds: string[];
  preferences: Record<string, boolean>;
}

type AccountReply = FormReply<{ intent?: string; favoriteIds?: string[] }, { intent?: string }>;

const section = 'flex flex-col gap-3 rounded-card border border-card-border bg-card p-4';

/** 'Minha conta': orders, addresses, favourites, e-mail preferences and the LGPD rights. */
export function AccountPage({ view, reply }: { view: AccountView; reply?: AccountReply }) {
  const refused = reply && !reply.ok ? reply : undefined;
  const deleting = reply?.intent === 'ask-delete' && reply.ok;
  const deleteRefused = refused?.intent === 'delete';
  return (
    <div className="section-spacing mx-auto flex max-w-3xl flex-col gap-6 px-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl sm:text-3xl">Minha conta</h1>
          <p className="text-sm">Você entrou como {view.email}.</p>
        </div>
        <Form method="post" action={SIGN_OUT_PATH}>
          <button type="submit" className="btn btn-outline">
            Sair
          </button>
        </Form>
      </div>
      <p role="status" className={reply?.ok ? 'font-semibold' : 'sr-only'}>
        {reply?.ok ? reply.toast.message : ''}
      </p>
      {refused && Object.keys(refused.fieldErrors).length === 0 ? (
        <ErrorSummary look={STORE_FORM} message={refused.toast.message} />
      ) : null}
      <Orders orders={view.orders} />
      <Addresses
        addresses={view.addresses}
        refused={refused?.intent === 'save-address' ? refused : undefined}
      />
      <Favorites favorites={view.favorites} accountIds={view.favoriteIds} />
      <Preferences preferences={view.preferences} />
      <section aria-labelledby="account-data" className={section}>
        <h2 id="account-data" className="text-lg font-semibold">
          Seus dados
        </h2>
        <p className="text-sm">
          Pela Lei Geral de Proteção de Dados (LGPD), você pode baixar tudo o que a loja guarda
          sobre você e excluir a sua conta quando quiser.
        </p>
        <a href={DATA_EXPORT_PATH} download className="btn btn-outline self-start">
          Baixar meus dados
        </a>
        <h3 className="font-semibold">Excluir minha conta</h3>
        <p className="text-sm">
          Serão excluídos seus endereços, favoritos, avisos de estoque, compras não finalizadas e
          sessões. Seus pedidos continuam guardados pela loja, como a lei fiscal exige, e suas
          avaliações passam a ser assinadas como “Cliente”. Se você recusou os lembretes de compra,
          a recusa continua valendo. Para confirmar, enviaremos um código para o seu e-mail.
        </p>
        {deleting || deleteRefused ? (
          <Form method="post" className="flex flex-col gap-3" noValidate>
            <input type="hidden" name="intent" value="delete" />
            <FormField
              look={STORE_FORM}
              idPrefix="delete"
              name="code"
              label="Código de 6 dígitos"
              error={deleteRefused ? refused?.fieldErrors.code : undefined}
              announce
            >
              {(control) => (
                <input
                  {...control}
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  required
                  className="field"
                />
              )}
            </FormField>
            <button type="submit" className="btn btn-danger self-start">
              Excluir minha conta
            </button>
          </Form>
        ) : (
          <Form method="post">
            <button type="submit" name="intent" value="ask-delete" className="btn btn-outline">
              Excluir minha conta
            </button>
          </Form>
        )}
      </section>
    </div>
  );
}

function Orders({ orders }: { orders: AccountView['orders'] }) {
  return (
    <section aria-labelledby="account-orders" className={section}>
      <h2 id="account-orders" className="text-lg font-semibold">
        Meus pedidos
      </h2>
      {orders.length === 0 ? (
        <p>Nenhum pedido feito com este e-mail ainda.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {orders.map((order) => {
            const page = `/order-confirmation?${new URLSearchParams({ orderId: order.id, chave: order.accessKey })}`;
            return (
              <li
                key={order.id}
                data-testid="account-order"
                className="flex flex-wrap items-center justify-between gap-3 border-b border-card-border pb-3 last:border-b-0"
              >
                <div>
                  <p className="font-semibold">
                    <Link to={page} reloadDocument className="underline">
                      Pedido {order.number}
                    </Link>{' '}
                    — {SHOPPER_STATUS_LABELS[order.status]}
                  </p>
                  <p className="text-sm">
                    Feito em {order.placedAt} ·{' '}
                    {order.lines.map((line) => `${line.quantity}× ${line.name}`).join(', ')}
                  </p>
                  <p className="text-sm font-semibold">
                    Total: <Money cents={order.totalCents} />
                  </p>
                </div>
                {order.status === 'pending' ? (
                  // The order's payment page, opened by its key as its e-mails' links open it: a
                  // new PIX there when the last one expired.
                  <Link to={page} reloadDocument className="btn btn-success">
                    Pagar agora
                  </Link>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

const ADDRESS_FIELDS = [
  { name: 'zipCode', label: 'CEP', autoComplete: 'postal-code', inputMode: 'numeric' },
  { name: 'street', label: 'Rua', autoComplete: 'address-line1' },
  { name: 'number', label: 'Número', autoComplete: 'off' },
  { name: 'complement', label: 'Complemento (opcional)', autoComplete: 'address-line2' },
  { name: 'neighborhood', label: 'Bairro', autoComplete: 'address-level3' },
  { name: 'city', label: 'Cidade', autoComplete: 'address-level2' },
] as const;

function AddressForm({
  address,
  refused,
}: {
  address?: SavedAddress;
  refused?: AccountReply & { ok: false };
}) {
  const prefix = address ? `address-${address.id}` : 'address-new';
  const values: Record<string, string> =
    refused?.values ??
    (address
      ? {
          zipCode: maskCep(address.zipCode),
          street: address.street,
          number: address.number,
          complement: address.complement,
          neighborhood: address.neighborhood,
          city: address.city,
          state: address.state,
        }
      : {});
  const errors = refused?.fieldErrors ?? {};
  return (
    <Form method="post" className="grid gap-3 sm:grid-cols-2" noValidate>
      <input type="hidden" name="intent" value="save-address" />
      <input type="hidden" name="addressId" value={address?.id ?? ''} />
      {ADDRESS_FIELDS.map((field) => (
        <FormField
          key={field.name}
          look={STORE_FORM}
          idPrefix={prefix}
          name={field.name}
          label={field.label}
          error={errors[field.name]}
        >
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete={field.autoComplete}
              inputMode={'inputMode' in field ? field.inputMode : undefined}
              defaultValue={values[field.name] ?? ''}
              className="field"
            />
          )}
        </FormField>
      ))}
      <FormField
        look={STORE_FORM}
        idPrefix={prefix}
        name="state"
        label="Estado"
        error={errors.state}
      >
        {(control) => (
          <select {...control} defaultValue={values.state ?? ''} className="field">
            <option value="">Selecione</option>
            {BRAZIL_STATES.map((state) => (
              <option key={state.code} value={state.code}>
                {state.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        look={STORE_FORM}
        idPrefix={prefix}
        name="isDefault"
        label="Usar como endereço padrão"
        layout="check"
      >
        {(control) => (
          <input {...control} type="checkbox" defaultChecked={address?.isDefault ?? false} />
        )}
      </FormField>
      <button type="submit" className="btn btn-primary self-start sm:col-span-2">
        Salvar endereço
      </button>
    </Form>
  );
}

function Addresses({
  addresses,
  refused,
}: {
  addresses: SavedAddress[];
  refused?: AccountReply & { ok: false };
}) {
  return (
    <section aria-labelledby="account-addresses" className={section}>
      <h2 id="account-addresses" className="text-lg font-semibold">
        Endereços
      </h2>
      {addresses.length === 0 ? <p>Nenhum endereço salvo.</p> : null}
      <ul className="flex flex-col gap-3">
        {addresses.map((address) => (
          <li key={address.id} data-testid="account-address" className="flex flex-col gap-2">
            <p>
              {addressLine(address)}
              {address.isDefault ? <strong> (padrão)</strong> : null}
            </p>
            <div className="flex flex-wrap gap-2">
              {address.isDefault ? null : (
                <Form method="post">
                  <input type="hidden" name="addressId" value={address.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="default-address"
                    className="btn btn-outline"
                  >
                    Usar como padrão
                  </button>
                </Form>
              )}
              <Form method="post">
                <input type="hidden" name="addressId" value={address.id} />
                <button
                  type="submit"
                  name="intent"
                  value="remove-address"
                  className="btn btn-outline"
                >
                  Remover
                </button>
              </Form>
            </div>
            <details>
              <summary className="cursor-pointer text-sm underline">Editar</summary>
              <AddressForm address={address} />
            </details>
          </li>
        ))}
      </ul>
      <details open={refused !== undefined || addresses.length === 0}>
        <summary className="cursor-pointer font-semibold">Adicionar endereço</summary>
        <AddressForm refused={refused} />
      </details>
    </section>
  );
}

/**
 * The account's favourites. This browser's favourites join the account's as the page opens, and
 * the browser keeps the union: the same favourites on every device the shopper signs in on.
 */
function Favorites({
  favorites,
  accountIds,
}: {
  favorites: AccountView['favorites'];
  accountIds: string[];
}) {
  const browserIds = useWishlistIds();
  const fetcher = useFetcher<AccountReply>();
  const synced = useRef(false);
  // Once per visit: later changes on this page (a favourite removed) are made on both sides.
  useEffect(() => {
    if (browserIds === null || synced.current) return;
    synced.current = true;
    replaceWishlist([...browserIds, ...accountIds]);
    if (browserIds.some((id) => !accountIds.includes(id))) {
      void fetcher.submit({ intent: 'favorites', ids: browserIds.join(',') }, { method: 'post' });
    }
  }, [browserIds, accountIds, fetcher]);
  return (
    <section aria-labelledby="account-favorites" className={section}>
      <h2 id="account-favorites" className="text-lg font-semibold">
        Favoritos
      </h2>
      {favorites.length === 0 ? (
        <p>
          Nenhum favorito ainda. Toque em “Favoritar” na página de um produto para guardá-lo aqui.
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {favorites.map((product) => (
            <li key={product.id} className="flex flex-wrap items-center justify-between gap-2">
              <Link to={`/product/${product.id}`} className="underline">
                {product.name}
              </Link>
              <Form
                method="post"
                onSubmit={() =>
                  replaceWishlist((browserIds ?? []).filter((id) => id !== product.id))
                }
              >
                <input type="hidden" name="productId" value={product.id} />
                <button
                  type="submit"
                  name="intent"
                  value="remove-favorite"
                  className="btn btn-outline"
                >
                  Remover
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Preferences({ preferences }: { preferences: Record<string, boolean> }) {
  return (
    <section aria-labelledby="account-preferences" className={section}>
      <h2 id="account-preferences" className="text-lg font-semibold">
        Preferências de e-mail
      </h2>
      <p className="text-sm">
        Os e-mails sobre os seus pedidos (recebido, pago, enviado, entregue) são sempre enviados.
      </p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="preferences" />
        {SHOPPER_PREFERENCES.map((preference) => (
          <FormField
            key={preference.key}
            look={STORE_FORM}
            idPrefix={`preference-${preference.key}`}
            name="enabled"
            label={preference.label}
            hint={preference.hint}
            layout="check"
          >
            {(control) => (
              <input
                {...control}
                type="checkbox"
                value={preference.key}
                defaultChecked={preferences[preference.key]}
              />
            )}
          </FormField>
        ))}
        <button type="submit" className="btn btn-primary self-start">
          Salvar preferências
        </button>
      </Form>
    </section>
  );
}
