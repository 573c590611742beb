import { randomUUID } from 'node:crypto';

import { expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { products } from '~/db/schema';
import { READINESS_TEXTS, storeReadiness } from '~/flows/store-readiness.server';
import { resolveConnections, type ConnectionsEnv } from '~/modules/connections/index.server';
import { createPaymentProvider } from '~/modules/payments/index.server';
import type { StoreMode, StoreSettings } from '~/modules/settings';
import { readSettings, saveSettings } from '~/modules/settings/index.server';

import { describeDb } from '../support/db';

/** A store as the list reads it: its settings, connections, PUBLIC_URL, carriers and stock. */
interface Store {
  mode: StoreMode;
  settings: Partial<StoreSettings>;
  /** The connections in force, set as the environment would set them. */
  env: ConnectionsEnv;
  publicUrl: string | null;
  carriers: boolean;
  /** The stock of the store's one product; null: no product at all. */
  stock: number | null;
}

const COMPLETE: Store = {
  mode: 'live',
  settings: {
    store_name: 'Caneca Viva',
    legal_name: 'Caneca Viva Comércio Ltda.',
    cnpj: '12.345.678/0001-95',
    contact_address: 'Rua Augusta, 100, São Paulo - SP',
    contact_email: 'contato@canecaviva.com.br',
    pix_key: 'contato@canecaviva.com.br',
    pix_merchant_name: 'Caneca Viva',
    pix_merchant_city: 'Sao Paulo',
    shipping_origin_cep: '01305000',
    shipping_origin_street: 'Rua Augusta',
    shipping_origin_number: '100',
    shipping_origin_district: 'Consolação',
    shipping_origin_city: 'São Paulo',
    shipping_origin_state: 'SP',
  },
  env: { PAYMENT_PROVIDER: 'pix', SMTP_URL: 'smtp://loja:senha@127.0.0.1:2525' },
  publicUrl: 'https://canecaviva.com.br',
  carriers: true,
  stock: 5,
};

const MERCADO_PAGO: ConnectionsEnv = {
  PAYMENT_PROVIDER: 'mercadopago',
  MERCADOPAGO_ACCESS_TOKEN: 'APP_USR-token',
  MERCADOPAGO_WEBHOOK_SECRET: 'segredo',
  SMTP_URL: COMPLETE.env.SMTP_URL,
};

const GATEWAY: ConnectionsEnv = {
  PAYMENT_PROVIDER: 'gateway',
  PAYMENT_GATEWAY_URL: 'https://gateway.test',
  PAYMENT_GATEWAY_SECRET_KEY: 'sk_live',
  SMTP_URL: COMPLETE.env.SMTP_URL,
};

/** Writes the store, then builds its provider as the server does and reads the list. */
async function readinessOf(db: Db, store: Store) {
  const saved = await saveSettings(db, store.settings);
  if (!saved.success) throw new Error(JSON.stringify(saved.errors));
  if (store.stock !== null) {
    await db
      .insert(products)
      .values({ id: randomUUID(), name: 'Caneca', priceCents: 4990, stockQuantity: store.stock });
  }
  const connections = resolveConnections([], store.env, null);
  const { values } = connections;
  const provider = createPaymentProvider({
    env: {
      NODE_ENV: 'production',
      PAYMENT_PROVIDER: values.payment_provider as ConnectionsEnv['PAYMENT_PROVIDER'],
      PAYMENT_GATEWAY_URL: values.gateway_url,
      PAYMENT_GATEWAY_SECRET_KEY: values.gateway_secret_key,
      MERCADOPAGO_API_URL: 'https://api.mercadopago.test',
      MERCADOPAGO_ACCESS_TOKEN: values.mercadopago_access_token,
      MERCADOPAGO_WEBHOOK_SECRET: values.mercadopago_webhook_secret,
      PUBLIC_URL: store.publicUrl ?? undefined,
    },
    db,
    settings: () => readSettings(db),
    mode: store.mode,
  });
  return storeReadiness(db, {
    mode: store.mode,
    settings: await readSettings(db),
    connections,
    provider,
    publicUrl: store.publicUrl,
    carriers: store.carriers,
  });
}

const ids = (readiness: Awaited<ReturnType<typeof readinessOf>>) =>
  readiness.missing.map((item) => item.id);

/** Each item: the store without it, then the change that takes it off the list. */
const CASES: {
  id: string;
  gap: Partial<Store>;
  fix: Partial<Store>;
  text: string;
  href: string;
  /** Whether a payment can be taken while it is missing. */
  selling: boolean;
}[] = [
  {
    id: 'payment-provider',
    gap: { env: { SMTP_URL: COMPLETE.env.SMTP_URL } },
    fix: { env: COMPLETE.env },
    text: READINESS_TEXTS.chooseProvider,
    href: '/admin/payments',
    selling: false,
  },
  {
    id: 'payment-provider',
    gap: { env: { ...MERCADO_PAGO, MERCADOPAGO_WEBHOOK_SECRET: undefined } },
    fix: { env: MERCADO_PAGO },
    text: READINESS_TEXTS.mercadoPagoCredentials,
    href: '/admin/payments',
    selling: false,
  },
  {
    id: 'payment-provider',
    gap: { env: { ...GATEWAY, PAYMENT_GATEWAY_SECRET_KEY: undefined } },
    fix: { env: GATEWAY },
    text: READINESS_TEXTS.gatewayCredentials,
    href: '/admin/payments',
    selling: false,
  },
  {
    id: 'pix-details',
    gap: { settings: { ...COMPLETE.settings, pix_merchant_city: '' } },
    fix: { settings: COMPLETE.settings },
    text: READINESS_TEXTS.pixDetails,
    href: '/admin/settings?aba=avancado#setting-pix_key',
    selling: false,
  },
  {
    id: 'public-url',
    gap: { env: MERCADO_PAGO, publicUrl: null },
    fix: { env: MERCADO_PAGO, publicUrl: COMPLETE.publicUrl },
    text: READINESS_TEXTS.publicUrl('Mercado Pago'),
    href: '/admin/payments',
    selling: false,
  },
  {
    id: 'public-url',
    gap: { env: GATEWAY, publicUrl: null },
    fix: { env: GATEWAY, publicUrl: COMPLETE.publicUrl },
    text: READINESS_TEXTS.publicUrl('gateway de pagamento'),
    href: '/admin/payments',
    selling: false,
  },
  {
    id: 'store-name',
    gap: { settings: { ...COMPLETE.settings, store_name: 'TechStore' } },
    fix: { settings: COMPLETE.settings },
    text: 'Dê o nome da sua loja: ela ainda se chama TechStore, o nome da loja de exemplo.',
    href: '/admin/settings?aba=basico#setting-store_name',
    selling: true,
  },
  {
    id: 'legal-name',
    gap: { settings: { ...COMPLETE.settings, legal_name: '' } },
    fix: { settings: COMPLETE.settings },
    text: READINESS_TEXTS.legalName,
    href: '/admin/settings?aba=contato#setting-legal_name',
    selling: true,
  },
  {
    id: 'cnpj',
    gap: { settings: { ...COMPLETE.settings, cnpj: '' } },
    fix: { settings: COMPLETE.settings },
    text: READINESS_TEXTS.cnpj,
    href: '/admin/settings?aba=contato#setting-cnpj',
    selling: true,
  },
  {
    id: 'address',
    gap: { settings: { ...COMPLETE.settings, contact_address: '' } },
    fix: { settings: COMPLETE.settings },
    text: READINESS_TEXTS.address,
    href: '/admin/settings?aba=contato#setting-contact_address',
    selling: true,
  },
  {
    id: 'contact',
    gap: { settings: { ...COMPLETE.settings, contact_email: '' } },
    // Any one way to reach the store will do.
    fix: {
      settings: { ...COMPLETE.settings, contact_email: '', contact_whatsapp: '5511987654321' },
    },
    text: READINESS_TEXTS.contact,
    href: '/admin/settings?aba=contato#setting-contact_email',
    selling: true,
  },
  {
    id: 'email-sending',
    gap: { env: { PAYMENT_PROVIDER: 'pix' } },
    fix: { env: COMPLETE.env },
    text: READINESS_TEXTS.emailSending,
    href: '/admin/payments',
    selling: true,
  },
  {
    id: 'shipping-origin',
    gap: { settings: { ...COMPLETE.settings, shipping_origin_number: '' } },
    // Without carriers the store's own rule prices shipping: no origin is needed.
    fix: { settings: { ...COMPLETE.settings, shipping_origin_number: '' }, carriers: false },
    text: READINESS_TEXTS.shippingOrigin,
    href: '/admin/settings?aba=avancado#setting-shipping_origin_cep',
    selling: true,
  },
  {
    id: 'product-in-stock',
    gap: { stock: 0 },
    fix: { stock: 1 },
    text: READINESS_TEXTS.productInStock,
    href: '/admin/products',
    selling: true,
  },
];

describeDb('what a live store lacks for a real sale', ({ db }) => {
  it('lists nothing for a demo, even one with nothing of its own', async () => {
    const readiness = await readinessOf(db(), {
      mode: 'demo',
      settings: {},
      env: {},
      publicUrl: null,
      carriers: true,
      stock: null,
    });
    expect(readiness).toEqual({ canTakePayments: true, missing: [] });
  });

  it('lists nothing for a live store that has it all', async () => {
    expect(await readinessOf(db(), COMPLETE)).toEqual({ canTakePayments: true, missing: [] });
  });

  it('lists everything, in order, for a live store with nothing of its own', async () => {
    const readiness = await readinessOf(db(), {
      mode: 'live',
      settings: {},
      env: {},
      publicUrl: null,
      carriers: true,
      stock: null,
    });
    expect(readiness.canTakePayments).toBe(false);
    expect(ids(readiness)).toEqual([
      'payment-provider',
      'store-name',
      'legal-name',
      'cnpj',
      'address',
      'contact',
      'email-sending',
      'shipping-origin',
      'product-in-stock',
    ]);
  });

  it.each(CASES.map((each) => [each.id, each.text, each] as const))(
    'lists %s while it is missing (%s), and not once it is done',
    async (id, text, { gap, fix, href, selling }) => {
      const missing = await readinessOf(db(), { ...COMPLETE, ...gap });
      expect(missing).toEqual({ canTakePayments: selling, missing: [{ id, text, href }] });
      const done = await readinessOf(db(), { ...COMPLETE, ...fix });
      expect(done).toEqual({ canTakePayments: true, missing: [] });
    },
  );
});
