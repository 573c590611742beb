import { formatCnpj } from '@brazilian-utils/brazilian-utils/format-cnpj';
import { getStates } from '@brazilian-utils/brazilian-utils/get-states';
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj';
import { isValidPixKey } from '@brazilian-utils/brazilian-utils/is-valid-pix-key';
import { z } from 'zod';

import { FONT_NAMES } from './fonts';

// Every value that reaches CSS or HTML is held to a strict shape here, so a setting can never
// carry markup or extra CSS declarations into the page.

const COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const CSS_LENGTH = /^(?:0|\d{1,3}(?:\.\d{1,3})?(?:px|rem|em|%|vw|vh))$/;
const CSS_DURATION = /^\d{1,4}(?:\.\d{1,3})?(?:ms|s)$/;

// This schema also runs in the admin's browser (the settings form and its live preview), where zod
// is one chunk shared with the storefront's checkout. So it uses only the zod features checkout
// already loads: numbers and flags are z.custom checks and fixed values z.enum, rather than
// z.number, z.boolean and z.literal, which would add their code to what every shopper downloads.
const numberIn = (
  min: number,
  max: number,
  messages: { type: string; range?: string; integer?: boolean },
) =>
  z
    .custom<number>(
      (value) =>
        typeof value === 'number' &&
        (messages.integer ? Number.isSafeInteger(value) : Number.isFinite(value)),
      { error: messages.type },
    )
    .refine((value) => value >= min && value <= max, {
      error: messages.range ?? `Use um valor entre ${min} e ${max}.`,
    });

const color = (fallback: string) =>
  z
    .string({ error: 'Informe uma cor.' })
    .trim()
    .regex(COLOR, { error: 'Cor inválida: use o formato #RRGGBB (por exemplo #3b82f6).' })
    .transform((value) => value.toLowerCase())
    .default(fallback);

/**
 * A colour that follows 'Cor primária' while empty (colors.ts works it out); a colour staff
 * choose wins.
 */
const derivedColor = () =>
  z
    .string({ error: 'Informe uma cor.' })
    .trim()
    .refine((value) => value === '' || COLOR.test(value), {
      error: 'Cor inválida: use o formato #RRGGBB (por exemplo #3b82f6) ou deixe em branco.',
    })
    .transform((value) => value.toLowerCase())
    .default('');

const cssLength = (fallback: string) =>
  z
    .string({ error: 'Informe um tamanho.' })
    .trim()
    .regex(CSS_LENGTH, { error: 'Tamanho inválido: use um valor como 1rem, 16px ou 50%.' })
    .default(fallback);

const duration = (fallback: string) =>
  z
    .string({ error: 'Informe uma duração.' })
    .trim()
    .regex(CSS_DURATION, { error: 'Duração inválida: use um valor como 200ms ou 0.3s.' })
    .default(fallback);

const scale = (fallback: number) =>
  numberIn(0.5, 2, {
    type: 'Informe um número, como 1.02.',
    range: 'A escala deve ficar entre 0.5 e 2.',
  }).default(fallback);

const fontWeight = (fallback: string) =>
  z
    .enum(['300', '400', '500', '600', '700', '800'], {
      error: 'Peso de fonte inválido: use 300, 400, 500, 600, 700 ou 800.',
    })
    .default(fallback as '400');

const text = (fallback: string, max = 200) =>
  z
    .string({ error: 'Informe um texto.' })
    .trim()
    .max(max, { error: `Use no máximo ${max} caracteres.` })
    .default(fallback);

/** Long texts written by the store (Markdown); empty means "use the built-in text". */
const longText = () => text('', 20_000);

function isSafeUrl(value: string): boolean {
  // Site-relative paths ("/uploads/logo.png") or absolute http(s) URLs without quotes, spaces
  // or brackets that could break out of an attribute.
  if (/[\s"'<>()\\`]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const url = () =>
  z
    .string({ error: 'Informe um endereço.' })
    .trim()
    .max(2000, { error: 'Endereço longo demais.' })
    .refine((value) => value === '' || isSafeUrl(value), {
      error: 'Endereço inválido: use um link que comece com https:// (ou http://).',
    })
    .default('');

const flag = (fallback: boolean) =>
  z
    .custom<boolean>((value) => typeof value === 'boolean', { error: 'Use verdadeiro ou falso.' })
    .default(fallback);

const integer = (fallback: number, min: number, max: number) =>
  numberIn(min, max, { type: 'Informe um número inteiro.', integer: true }).default(fallback);

/** An id pasted from a tracking service; it ends up inside a script, so only its own alphabet. */
const trackingId = (pattern: RegExp, example: string) =>
  z
    .string({ error: 'Informe o identificador.' })
    .trim()
    .refine((value) => value === '' || pattern.test(value), {
      error: `Identificador inválido (exemplo: ${example}).`,
    })
    .default('');

/** A PIX key as the bank shows it: CPF, CNPJ, e-mail, phone (+55…) or random key (EVP). */
const pixKey = () =>
  z
    .string({ error: 'Informe a chave PIX.' })
    .trim()
    .max(77, { error: 'Chave PIX longa demais.' })
    .refine((value) => value === '' || isValidPixKey(value), {
      error: 'Chave PIX inválida: use CPF, CNPJ, e-mail, telefone (+55…) ou chave aleatória.',
    })
    .default('');

/**
 * The store's CNPJ, numeric or in the alphanumeric form the Receita Federal issues from 2026,
 * kept with its mask (12.345.678/0001-95) as the footer shows it.
 */
const cnpj = () =>
  z
    .string({ error: 'Informe o CNPJ.' })
    .trim()
    .toUpperCase()
    .refine((value) => value === '' || isValidCnpj(value, { version: 2 }), {
      error: 'CNPJ inválido: confira os 14 caracteres (por exemplo 12.345.678/0001-95).',
    })
    .transform((value) => (value === '' ? '' : formatCnpj(value, { version: 2 })))
    .default('');

/** A CEP typed with or without its mask, kept as its 8 digits ('' while not set). */
const cep = () =>
  z
    .string({ error: 'Informe o CEP.' })
    .trim()
    .transform((value) => value.replace(/[.\s-]/g, ''))
    .refine((value) => value === '' || /^\d{8}$/.test(value), {
      error: 'CEP inválido: use 8 números, como 01310-100.',
    })
    .default('');

const STATE_CODES = new Set<string>(getStates().map((state) => state.code));

/** A state's two letters ('SP'), typed in any case. */
const stateCode = () =>
  z
    .string({ error: 'Informe o estado.' })
    .trim()
    .toUpperCase()
    .refine((value) => value === '' || STATE_CODES.has(value), {
      error: 'Estado inválido: use a sigla, como SP.',
    })
    .default('');

/** Carrier service ids, comma-separated ('1, 2, 17'), kept as '1,2,17'; '' means every one. */
const serviceIds = () =>
  z
    .string({ error: 'Informe os serviços.' })
    .trim()
    .transform((value) =>
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean)
        .join(','),
    )
    .refine((value) => value === '' || /^\d{1,5}(,\d{1,5}){0,49}$/.test(value), {
      error: 'Use os números dos serviços separados por vírgula, como 1, 2, 17.',
    })
    .default('');

const ROBOTS_TOKENS = new Set([
  'index',
  'noindex',
  'follow',
  'nofollow',
  'all',
  'none',
  'noarchive',
  'nosnippet',
  'noimageindex',
  'notranslate',
]);

const BRAZIL_TIME_ZONES = [
  'America/Sao_Paulo',
  'America/Noronha',
  'America/Belem',
  'America/Fortaleza',
  'America/Recife',
  'America/Araguaina',
  'America/Maceio',
  'America/Bahia',
  'America/Campo_Grande',
  'America/Cuiaba',
  'America/Santarem',
  'America/Porto_Velho',
  'America/Boa_Vista',
  'America/Manaus',
  'America/Eirunepe',
  'America/Rio_Branco',
] as const;

export const settingsSchema = z.object({
  // Identity
  store_name: text('TechStore', 80),
  // Empty: a slogan names what the store sells, which only the merchant knows (the sample store
  // writes its own, and going live takes it away).
  store_description: text('', 500),
  store_slogan: text('', 120),
  // Empty: the storefront shows "Boas-vindas à loja {store_name}".
  welcome_message: text('', 160),
  logo_url: url(),
  favicon_url: url(),
  banner_url: url(),
  header_banner_url: url(),
  about_image_url: url(),

  // Colours
  primary_color: color('#3b82f6'),
  secondary_color: color('#10b981'),
  accent_color: color('#f59e0b'),
  background_color: color('#ffffff'),
  text_color: color('#111827'),
  home_title_color: color('#ffffff'),
  // SPEC's #3b82f6 behind white text is 3.7:1, below WCAG AA for button labels: the buttons,
  // links and prices that follow the primary colour take a readable shade of it (colors.ts).
  button_primary_color: derivedColor(),
  button_primary_text_color: derivedColor(),
  button_primary_hover_color: derivedColor(),
  button_secondary_color: color('#047857'),
  button_secondary_text_color: color('#ffffff'),
  button_secondary_hover_color: color('#065f46'),
  // 'Comprar agora' and the other buttons that finish a purchase.
  button_success_color: derivedColor(),
  button_success_text_color: derivedColor(),
  button_success_hover_color: derivedColor(),
  button_danger_color: color('#dc2626'),
  button_danger_text_color: color('#ffffff'),
  button_danger_hover_color: color('#b91c1c'),
  product_title_color: color('#111827'),
  product_description_color: color('#6b7280'),
  product_price_color: derivedColor(),
  header_background_color: color('#ffffff'),
  header_text_color: color('#111827'),
  footer_background_color: color('#111827'),
  footer_text_color: color('#f9fafb'),
  link_color: derivedColor(),
  icon_color: color('#374151'),
  nav_color: color('#374151'),
  breadcrumb_color: derivedColor(),
  card_background_color: color('#ffffff'),
  card_border_color: color('#e5e7eb'),
  input_background_color: color('#ffffff'),
  input_border_color: color('#d1d5db'),

  // Typography
  font_family: z.enum(FONT_NAMES, { error: 'Escolha uma das fontes da lista.' }).default('Roboto'),
  heading_font: z
    .enum(FONT_NAMES, { error: 'Escolha uma das fontes da lista.' })
    .default('Montserrat'),
  base_font_size: cssLength('1rem'),
  heading_font_weight: fontWeight('700'),
  product_title_font_size: cssLength('1.25rem'),
  product_title_font_weight: fontWeight('600'),
  product_description_font_size: cssLength('0.875rem'),
  product_price_font_size: cssLength('1.5rem'),
  product_price_font_weight: fontWeight('700'),

  // Layout
  card_border_radius: cssLength('8px'),
  button_border_radius: cssLength('6px'),
  card_padding: cssLength('1rem'),
  button_padding_x: cssLength('1rem'),
  button_padding_y: cssLength('0.5rem'),
  section_spacing: cssLength('3rem'),
  container_max_width: cssLength('80rem'),
  hover_transition_duration: duration('200ms'),
  button_hover_scale: scale(1.02),
  card_hover_scale: scale(1.01),
  header_style: z
    .enum(['classic', 'centered'], { error: 'Estilo de cabeçalho inválido.' })
    .default('classic'),
  footer_style: z
    .enum(['full', 'compact'], { error: 'Estilo de rodapé inválido.' })
    .default('full'),

  // Locale: the storefront is built for Brazil; only the time zone varies.
  currency: z.enum(['BRL'], { error: 'A moeda da loja é o real (BRL).' }).default('BRL'),
  currency_symbol: z.enum(['R$'], { error: 'O símbolo da moeda é R$.' }).default('R$'),
  language: z.enum(['pt-BR'], { error: 'O idioma da loja é pt-BR.' }).default('pt-BR'),
  timezone: z
    .enum(BRAZIL_TIME_ZONES, { error: 'Escolha um fuso horário do Brasil.' })
    .default('America/Sao_Paulo'),

  // Feature switches
  enable_reviews: flag(true),
  enable_notifications: flag(true),
  enable_wishlist: flag(true),
  enable_compare: flag(true),
  enable_chat: flag(false),
  maintenance_mode: flag(false),
  enable_dark_mode: flag(false),

  // SEO
  meta_title: text('', 70),
  meta_description: text('', 320),
  meta_keywords: text('', 300),
  meta_author: text('', 100),
  meta_robots: z
    .string({ error: 'Informe as diretivas para robôs.' })
    .trim()
    .toLowerCase()
    .refine(
      (value) =>
        value
          .split(',')
          .map((token) => token.trim())
          .every((token) => ROBOTS_TOKENS.has(token)),
      { error: 'Diretivas inválidas: use por exemplo "index, follow" ou "noindex, nofollow".' },
    )
    .default('index, follow'),
  canonical_url: url(),
  og_title: text('', 95),
  og_description: text('', 300),
  og_image_url: url(),
  og_type: z.enum(['website', 'article'], { error: 'Tipo inválido.' }).default('website'),
  twitter_card: z
    .enum(['summary', 'summary_large_image'], { error: 'Tipo de cartão inválido.' })
    .default('summary_large_image'),
  twitter_site: trackingId(/^@?\w{1,15}$/, '@minhaloja'),
  twitter_title: text('', 70),
  twitter_description: text('', 200),
  twitter_image_url: url(),
  schema_type: z
    .enum(['Store', 'OnlineStore', 'Organization', 'LocalBusiness'], {
      error: 'Tipo de organização inválido.',
    })
    .default('OnlineStore'),
  schema_description: text('', 500),

  // Contact
  contact_email: z
    .union([z.enum(['']), z.email({ error: 'E-mail inválido.' })], { error: 'E-mail inválido.' })
    .default(''),
  contact_phone: z
    .string({ error: 'Informe um telefone.' })
    .trim()
    .regex(/^$|^[\d\s()+-]{8,20}$/, { error: 'Telefone inválido: use algo como (11) 4000-1234.' })
    .default(''),
  // Digits with country code, as wa.me links need: 5511987654321.
  contact_whatsapp: z
    .string({ error: 'Informe o WhatsApp.' })
    .trim()
    .transform((value) => value.replace(/[\s()+-]/g, ''))
    .refine((value) => value === '' || /^\d{10,13}$/.test(value), {
      error: 'WhatsApp inválido: informe DDD e número, como 5511987654321.',
    })
    .default(''),
  contact_address: text('', 300),
  // Decreto 7.962/2013: the footer names who sells (razão social and CNPJ).
  legal_name: text('', 150),
  cnpj: cnpj(),

  // Social
  facebook_url: url(),
  instagram_url: url(),
  twitter_url: url(),
  youtube_url: url(),
  linkedin_url: url(),
  tiktok_url: url(),

  // Tracking (loaded only after the shopper consents)
  google_analytics_id: trackingId(/^(G|UA)-[A-Z0-9-]{4,20}$/, 'G-XXXXXXXXXX'),
  google_tag_manager_id: trackingId(/^GTM-[A-Z0-9]{4,12}$/, 'GTM-XXXXXXX'),
  facebook_pixel_id: trackingId(/^\d{15,16}$/, '123456789012345'),
  google_ads_conversion_id: trackingId(/^AW-\d{6,12}$/, 'AW-123456789'),
  google_ads_conversion_label: trackingId(/^[\w-]{4,40}$/, 'AbC-D_efG-h12_34-567'),
  hotjar_id: trackingId(/^\d{5,10}$/, '1234567'),
  clarity_id: trackingId(/^[a-z0-9]{6,16}$/, 'abcdefghij'),
  tiktok_pixel_id: trackingId(/^[A-Z0-9]{10,30}$/, 'C4ABCDEFGHIJKLMNOPQR'),
  pinterest_tag_id: trackingId(/^\d{10,16}$/, '2612345678901'),
  snapchat_pixel_id: trackingId(/^[a-f0-9-]{36}$/, '12345678-abcd-1234-abcd-1234567890ab'),
  // Written by the store's staff on purpose; injected as-is after consent.
  custom_head_scripts: longText(),
  custom_body_scripts: longText(),
  custom_footer_scripts: longText(),

  // Legal and page texts (Markdown; empty means the built-in text made from these settings)
  privacy_policy_url: url(),
  terms_of_service_url: url(),
  footer_text: text('', 500),
  about_page_text: longText(),
  return_policy_text: longText(),
  privacy_policy_text: longText(),
  faq_page_text: longText(),
  contact_page_text: longText(),

  // Button labels and messages
  add_to_cart_text: text('Adicionar ao carrinho', 40),
  buy_now_text: text('Comprar agora', 40),
  view_product_text: text('Ver produto', 40),
  continue_shopping_text: text('Continuar comprando', 40),
  checkout_text: text('Finalizar compra', 40),
  view_cart_text: text('Ver carrinho', 40),
  search_placeholder_text: text('Buscar produtos', 60),
  filter_text: text('Aplicar filtros', 40),
  clear_filters_text: text('Limpar filtros', 40),
  success_message: text('Operação realizada com sucesso!', 160),
  error_message: text('Ocorreu um erro. Tente novamente.', 160),
  loading_message: text('Carregando…', 60),
  empty_cart_message: text('Seu carrinho está vazio', 160),
  no_products_message: text('Nenhum produto encontrado', 160),

  // Commerce (money in integer cents)
  shipping_mode: z
    .enum(['free', 'flat_rate'], { error: 'Escolha frete grátis ou frete fixo.' })
    .default('free'),
  default_shipping_cost_cents: integer(1000, 0, 100_000_00),
  // With flat-rate shipping, orders from this subtotal ship free; 0 turns it off.
  free_shipping_threshold_cents: integer(10_000, 0, 100_000_00),
  min_order_value_cents: integer(0, 0, 100_000_00),
  // Percent, for display; prices already include taxes in Brazil.
  tax_rate: numberIn(0, 100, { type: 'Informe um número.' }).default(0),
  estimated_delivery_days: integer(7, 1, 120),
  // Carrier shipping (SHIPPING_PROVIDER): where parcels leave from (until set, the rule above
  // prices shipping), the package of a variant that gives none, the services offered, what the
  // store adds to a carrier's price, and the days it takes to hand a parcel over.
  shipping_origin_cep: cep(),
  // The sender's address printed on carrier labels (the CEP above completes it); the sender is
  // the legal name (or store name) with the CNPJ, phone and e-mail of the company settings.
  shipping_origin_street: text('', 150),
  shipping_origin_number: text('', 20),
  shipping_origin_complement: text('', 60),
  shipping_origin_district: text('', 80),
  shipping_origin_city: text('', 80),
  shipping_origin_state: stateCode(),
  default_weight_grams: integer(300, 1, 100_000),
  default_length_cm: integer(20, 1, 200),
  default_width_cm: integer(15, 1, 200),
  default_height_cm: integer(10, 1, 200),
  shipping_services: serviceIds(),
  shipping_markup_cents: integer(0, 0, 1_000_00),
  shipping_markup_percent: integer(0, 0, 100),
  shipping_handling_days: integer(0, 0, 30),
  // Notas fiscais through the ERP (/admin/integrations): issued as soon as a paid order is at
  // the ERP, or when staff press 'Emitir NF-e'.
  invoice_on: z
    .enum(['manual', 'paid'], { error: 'Escolha quando a NF-e é emitida.' })
    .default('manual'),
  return_window_days: integer(30, 7, 365),
  products_per_page: integer(12, 4, 96),
  // Against one shopper holding the whole stock in unpaid orders: the most units of one product
  // a cart line (and so an order) may hold, and the most unpaid orders at once per browser, CPF
  // and client address.
  max_quantity_per_item: integer(10, 1, 999),
  max_pending_orders: integer(3, 1, 50),
  // Abandoned checkouts: minutes after the shopper typed an e-mail at checkout without ordering
  // until the one recovery e-mail goes; 0 turns recovery e-mails off.
  abandoned_checkout_delay_minutes: integer(120, 0, 30 * 24 * 60),
  enable_local_pickup: flag(false),
  enable_credit_card: flag(true),
  enable_debit_card: flag(true),
  enable_pix: flag(true),
  enable_boleto: flag(true),
  enable_paypal: flag(false),
  // Percent off the products for paying by PIX (0 turns it off): shown beside every price and
  // taken off the order by the server at checkout.
  pix_discount_percent: integer(0, 0, 50),
  // Whether a coupon's discount adds to the PIX discount; off, the better of the two applies.
  coupon_stacks_with_pix: flag(false),
  // Card instalments without interest as the store's gateway offers them: 'ou 12x de R$ …' shows
  // only with card payments on and more than one instalment, each at least min_installment_cents.
  max_installments: integer(1, 1, 24),
  min_installment_cents: integer(500, 100, 100_000_00),
  // Whether the store pays the card's instalment interest: only then do pages say 'sem juros'
  // (with Mercado Pago, the store sets the same in its panel).
  installments_interest_free: flag(true),
  // Business days until a boleto falls due: the order holds its stock that long (and the bank's
  // clearing after), then an unpaid boleto cancels it like an expired PIX.
  boleto_due_days: integer(3, 1, 30),

  // PIX with the store's own key (PAYMENT_PROVIDER=pix). The name and city go into the BR Code,
  // which holds at most 25 and 15 ASCII characters; longer ones are folded and cut when it is built.
  pix_key: pixKey(),
  pix_merchant_name: text('', 25),
  pix_merchant_city: text('', 15),
  // A static BR Code carries no expiry: the store cancels an unpaid order after this long.
  pix_expiration_minutes: integer(60, 5, 7 * 24 * 60),
});

export type StoreSettings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof StoreSettings;

const fields = settingsSchema.shape;
const DEFAULTS: StoreSettings = settingsSchema.parse({});

export function defaultSettings(): StoreSettings {
  return structuredClone(DEFAULTS);
}

function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(fields, key);
}

/** The stored values that are still valid; missing, empty or invalid ones are left out. */
export function validStoredValues(
  stored: Record<string, unknown> | null | undefined,
): Partial<StoreSettings> {
  const valid: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored ?? {})) {
    if (!isSettingKey(key) || value === null || value === '') continue;
    const parsed = fields[key].safeParse(value);
    if (parsed.success) valid[key] = parsed.data;
  }
  return valid as Partial<StoreSettings>;
}

/**
 * Turns whatever is stored into a complete, valid record: a missing, empty or invalid value
 * (say, edited by hand in the database) falls back to its default instead of breaking the store.
 */
export function resolveSettings(stored: Record<string, unknown> | null | undefined): StoreSettings {
  return { ...defaultSettings(), ...validStoredValues(stored) };
}

export type SettingsErrors = Partial<Record<string, string>>;

export type SettingsPatchResult =
  { success: true; values: Partial<StoreSettings> } | { success: false; errors: SettingsErrors };

/** Validates a change to some settings; every bad or unknown field gets its own pt-BR message. */
export function parseSettingsPatch(input: unknown): SettingsPatchResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { success: false, errors: { '': 'Envie as configurações como um objeto.' } };
  }
  const values: Record<string, unknown> = {};
  const errors: SettingsErrors = {};
  for (const [key, value] of Object.entries(input)) {
    if (!isSettingKey(key)) {
      errors[key] = 'Configuração desconhecida.';
      continue;
    }
    const parsed = fields[key].safeParse(value);
    if (parsed.success) values[key] = parsed.data;
    else errors[key] = parsed.error.issues[0]?.message ?? 'Valor inválido.';
  }
  if (Object.keys(errors).length > 0) return { success: false, errors };
  return { success: true, values: values as Partial<StoreSettings> };
}
