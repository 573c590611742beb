import type { Db } from '~/db/database.server';
import { hasProductInStock } from '~/modules/catalog/index.server';
import type { Connections } from '~/modules/connections/index.server';
import type { PaymentProvider } from '~/modules/payments';
import { canTakePayments } from '~/modules/payments/index.server';
import {
  defaultSettings,
  type SettingKey,
  type StoreMode,
  type StoreSettings,
} from '~/modules/settings';
import { tabOfField } from '~/modules/settings/index.admin';

/** Each thing a live store may lack before its first real sale: stable, the start's log names them. */
export type ReadinessId =
  | 'payment-provider'
  | 'pix-details'
  | 'public-url'
  | 'store-name'
  | 'legal-name'
  | 'cnpj'
  | 'address'
  | 'contact'
  | 'email-sending'
  | 'shipping-origin'
  | 'product-in-stock';

/** One missing thing: what to do, in staff's words, and the admin screen where it is done. */
export interface ReadinessItem {
  id: ReadinessId;
  text: string;
  href: string;
}

/** What the list is made from: the store as every request sees it now. */
export interface ReadinessFacts {
  mode: StoreMode;
  settings: StoreSettings;
  /** The connections in force (the environment's over the admin's). */
  connections: Pick<Connections, 'values'>;
  /** The payment provider built from them (`context.payments()`). */
  provider: Pick<PaymentProvider, 'name'> | null;
  /** PUBLIC_URL, where Mercado Pago and the gateway notify the store. */
  publicUrl: string | null;
  /** Whether a carrier integration (Melhor Envio) is connected. */
  carriers: boolean;
}

export interface StoreReadiness {
  /** Whether checkout can take a payment now: false, the storefront says it is not selling yet. */
  canTakePayments: boolean;
  /** Empty for a demo, which is not meant to sell, and for a live store that lacks nothing. */
  missing: ReadinessItem[];
}

const PAYMENTS_PATH = '/admin/payments';

const PROVIDER_NAMES = { mercadopago: 'Mercado Pago', gateway: 'gateway de pagamento' } as const;

export const READINESS_TEXTS = {
  chooseProvider:
    'Escolha o provedor de pagamento: Mercado Pago, PIX com a chave da loja ou gateway.',
  mercadoPagoCredentials:
    'Informe o Access Token e a assinatura secreta dos webhooks do Mercado Pago.',
  gatewayCredentials: 'Informe o endereço e a chave secreta do gateway de pagamento.',
  pixDetails:
    'Preencha a chave PIX, o nome e a cidade do recebedor: sem eles a loja não gera o PIX.',
  publicUrl: (provider: string) =>
    'Peça a quem instalou a loja para definir o endereço público dela (variável PUBLIC_URL, ' +
    `como https://sualoja.com.br): é nele que o ${provider} avisa dos pagamentos.`,
  storeName: (sample: string) =>
    `Dê o nome da sua loja: ela ainda se chama ${sample}, o nome da loja de exemplo.`,
  legalName: 'Informe a razão social da empresa, que o rodapé mostra (Decreto 7.962/2013).',
  cnpj: 'Informe o CNPJ da empresa, que o rodapé mostra (Decreto 7.962/2013).',
  address: 'Informe o endereço da empresa, que o rodapé mostra (Decreto 7.962/2013).',
  contact: 'Informe um contato para os clientes: e-mail, telefone ou WhatsApp.',
  emailSending:
    'Configure o envio de e-mails: sem ele, os clientes não recebem a confirmação dos pedidos.',
  shippingOrigin:
    'Preencha o endereço de origem dos envios (CEP, rua, número, bairro, cidade e estado): ' +
    'as cotações e as etiquetas das transportadoras partem dele.',
  productInStock: 'Cadastre ao menos um produto com estoque.',
} as const;

/**
 * The settings screen opened on the field's tab, at the field (its input's id is the field's
 * name after the form's 'setting' prefix).
 */
function settingPath(key: SettingKey): string {
  return `/admin/settings?${new URLSearchParams({ aba: tabOfField(key) ?? 'basico' })}#setting-${key}`;
}

const ORIGIN_FIELDS = [
  'shipping_origin_cep',
  'shipping_origin_street',
  'shipping_origin_number',
  'shipping_origin_district',
  'shipping_origin_city',
  'shipping_origin_state',
] as const satisfies readonly SettingKey[];

/** Why no payment can be taken, when none can: the first thing the list asks for. */
function paymentItems(facts: ReadinessFacts): ReadinessItem[] {
  const { values } = facts.connections;
  const chosen = values.payment_provider;
  const items: ReadinessItem[] = [];
  if (!canTakePayments(facts.provider, facts.settings)) {
    if (facts.provider?.name === 'pix') {
      items.push({
        id: 'pix-details',
        text: READINESS_TEXTS.pixDetails,
        href: settingPath('pix_key'),
      });
    } else if (chosen === 'mercadopago') {
      if (!values.mercadopago_access_token || !values.mercadopago_webhook_secret) {
        items.push({
          id: 'payment-provider',
          text: READINESS_TEXTS.mercadoPagoCredentials,
          href: PAYMENTS_PATH,
        });
      }
    } else if (chosen === 'gateway') {
      if (!values.gateway_url || !values.gateway_secret_key) {
        items.push({
          id: 'payment-provider',
          text: READINESS_TEXTS.gatewayCredentials,
          href: PAYMENTS_PATH,
        });
      }
    } else {
      items.push({
        id: 'payment-provider',
        text: READINESS_TEXTS.chooseProvider,
        href: PAYMENTS_PATH,
      });
    }
  }
  if ((chosen === 'mercadopago' || chosen === 'gateway') && !facts.publicUrl) {
    items.push({
      id: 'public-url',
      text: READINESS_TEXTS.publicUrl(PROVIDER_NAMES[chosen]),
      href: PAYMENTS_PATH,
    });
  }
  return items;
}

/**
 * 'Falta para vender': what a live store still lacks before a real sale (a payment it can take,
 * who sells and how to reach them, e-mails, where parcels leave from, something in stock), each
 * with the screen where staff fix it. A demo lists nothing: it is not meant to sell.
 */
export async function storeReadiness(db: Db, facts: ReadinessFacts): Promise<StoreReadiness> {
  const selling = canTakePayments(facts.provider, facts.settings);
  if (facts.mode === 'demo') return { canTakePayments: selling, missing: [] };
  const { settings } = facts;
  const missing = paymentItems(facts);
  // The sample store's name is the setting's default: going live cannot clear it as it clears
  // the sample slogan (a store has a name), so the list asks for the merchant's own.
  const sampleName = defaultSettings().store_name;
  if (settings.store_name === sampleName) {
    missing.push({
      id: 'store-name',
      text: READINESS_TEXTS.storeName(sampleName),
      href: settingPath('store_name'),
    });
  }
  if (!settings.legal_name) {
    missing.push({
      id: 'legal-name',
      text: READINESS_TEXTS.legalName,
      href: settingPath('legal_name'),
    });
  }
  // The setting takes a CNPJ only; a merchant selling as a person (CPF) has no field for it yet.
  if (!settings.cnpj) {
    missing.push({ id: 'cnpj', text: READINESS_TEXTS.cnpj, href: settingPath('cnpj') });
  }
  if (!settings.contact_address.trim()) {
    missing.push({
      id: 'address',
      text: READINESS_TEXTS.address,
      href: settingPath('contact_address'),
    });
  }
  if (!settings.contact_email && !settings.contact_phone && !settings.contact_whatsapp) {
    missing.push({
      id: 'contact',
      text: READINESS_TEXTS.contact,
      href: settingPath('contact_email'),
    });
  }
  if (!facts.connections.values.smtp_url) {
    missing.push({
      id: 'email-sending',
      text: READINESS_TEXTS.emailSending,
      href: PAYMENTS_PATH,
    });
  }
  if (facts.carriers && ORIGIN_FIELDS.some((key) => settings[key] === '')) {
    missing.push({
      id: 'shipping-origin',
      text: READINESS_TEXTS.shippingOrigin,
      href: settingPath('shipping_origin_cep'),
    });
  }
  if (!(await hasProductInStock(db))) {
    missing.push({
      id: 'product-in-stock',
      text: READINESS_TEXTS.productInStock,
      href: '/admin/products',
    });
  }
  return { canTakePayments: selling, missing };
}
