import { z } from 'zod';

import { formatReaisInput, parseReais } from '~/lib/reais';
import { MAX_IMAGE_BYTES, MEDIA_MESSAGES } from '~/modules/media';

import { isDerivedColor } from './colors';
import { FONT_NAMES } from './fonts';
import { settingsSchema, type SettingKey, type StoreSettings } from './settings';
import { TIME_ZONE_LABELS } from './time-zones';

// The admin's settings form: which tab holds each setting, how it is typed, and how the form's
// strings become setting values. Browser and server read the form with the same schema.
//
// Form convention: every input is named by its setting key. Values are what staff type, and the
// key's own schema decides what is valid, with two conversions in this file:
// - money settings (keys ending in `_cents`) are shown and typed in reais the Brazilian way
//   ("1.234,56", also "10" or "10.5"), and become integer cents here;
// - a checkbox sends "on" when ticked and nothing otherwise, so an absent one means false.

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'markdown'
  | 'script'
  | 'url'
  | 'email'
  | 'tel'
  | 'color'
  | 'length'
  | 'duration'
  | 'integer'
  | 'decimal'
  | 'money'
  | 'checkbox'
  | 'select';

export interface SelectOption {
  value: string;
  label: string;
}

export interface FieldSpec {
  key: SettingKey;
  label: string;
  kind: FieldKind;
  hint?: string;
  placeholder?: string;
  options?: readonly SelectOption[];
  /** For number inputs: their step (decimals). */
  step?: string;
  /** For an image's address: the file input beside it, whose upload replaces the address. */
  upload?: BrandUploadName;
}

/** Read-only blocks a group shows above its fields, filled by the page from the server. */
export type GroupPanel = 'locale' | 'payment-provider' | 'integrations' | 'product-feeds';

export interface SettingsGroup {
  title: string;
  description?: string;
  panel?: GroupPanel;
  fields: FieldSpec[];
}

const SETTINGS_TAB_IDS = [
  'basico',
  'design',
  'tipografia',
  'layout',
  'contato',
  'redes-sociais',
  'seo',
  'avancado',
  'paginas',
] as const;

export type SettingsTabId = (typeof SETTINGS_TAB_IDS)[number];

export interface SettingsTab {
  id: SettingsTabId;
  label: string;
  groups: SettingsGroup[];
}

function field(
  key: SettingKey,
  label: string,
  kind: FieldKind,
  extra: Omit<FieldSpec, 'key' | 'label' | 'kind'> = {},
): FieldSpec {
  return { key, label, kind, ...extra };
}

const FONT_OPTIONS = FONT_NAMES.map((font) => ({ value: font, label: font }));

const WEIGHT_OPTIONS: SelectOption[] = [
  { value: '300', label: '300 (leve)' },
  { value: '400', label: '400 (normal)' },
  { value: '500', label: '500 (médio)' },
  { value: '600', label: '600 (seminegrito)' },
  { value: '700', label: '700 (negrito)' },
  { value: '800', label: '800 (extranegrito)' },
];

const TIME_ZONE_OPTIONS = Object.entries(TIME_ZONE_LABELS).map(([value, label]) => ({
  value,
  label,
}));

const LENGTH_HINT = 'Use um valor como 1rem, 16px ou 50%.';
const TRACKING_HINT = 'Carregado só depois que o cliente aceita os cookies.';

export const DERIVED_COLOR_HINT = 'Em branco: segue a cor primária.';

function colors(list: [SettingKey, string][]): FieldSpec[] {
  return list.map(([key, label]) =>
    field(key, label, 'color', isDerivedColor(key) ? { hint: DERIVED_COLOR_HINT } : {}),
  );
}

function buttonColors(prefix: string, name: string): FieldSpec[] {
  return colors([
    [`button_${prefix}_color` as SettingKey, `Botão ${name}: fundo`],
    [`button_${prefix}_text_color` as SettingKey, `Botão ${name}: texto`],
    [`button_${prefix}_hover_color` as SettingKey, `Botão ${name}: fundo ao passar o mouse`],
  ]);
}

export const SETTINGS_TABS: readonly SettingsTab[] = [
  {
    id: 'basico',
    label: 'Básico',
    groups: [
      {
        title: 'Identidade da loja',
        fields: [
          field('store_name', 'Nome da loja', 'text', { hint: 'Em branco: TechStore.' }),
          field('store_slogan', 'Slogan', 'text'),
          field('store_description', 'Descrição da loja', 'textarea'),
          field('welcome_message', 'Mensagem de boas-vindas', 'text', {
            hint: 'Em branco: “Boas-vindas à loja” seguido do nome da loja.',
          }),
        ],
      },
      {
        title: 'Imagens',
        description:
          'Envie um arquivo (JPG, PNG, WebP ou GIF, até 8 MB) ou informe o endereço da imagem ' +
          '(https://…) ou um caminho do próprio site (/…).',
        fields: [
          field('logo_url', 'Logo', 'url', {
            placeholder: 'https://…/logo.png',
            upload: 'logo_upload',
          }),
          field('favicon_url', 'Ícone da aba do navegador (favicon)', 'url', {
            upload: 'favicon_upload',
            hint: 'O arquivo enviado vira um ícone quadrado de 64 × 64 px.',
          }),
          field('banner_url', 'Imagem de fundo da página inicial', 'url', {
            upload: 'banner_upload',
          }),
          // SPEC §2 pins it beside the save button on every tab; there it read as part of saving,
          // on tabs that have nothing to do with pictures (issue 38). It is one of the images.
          field('header_banner_url', 'Faixa acima do cabeçalho', 'url', {
            hint: 'Imagem no topo de todas as páginas da loja; em branco, nenhuma.',
          }),
          field('about_image_url', 'Imagem da página Sobre nós', 'url'),
        ],
      },
      {
        title: 'Região',
        panel: 'locale',
        fields: [field('timezone', 'Fuso horário', 'select', { options: TIME_ZONE_OPTIONS })],
      },
      {
        title: 'Textos dos botões e mensagens',
        fields: [
          field('add_to_cart_text', 'Botão de adicionar ao carrinho', 'text'),
          field('buy_now_text', 'Botão de comprar agora', 'text'),
          field('continue_shopping_text', 'Botão de continuar comprando', 'text'),
          field('checkout_text', 'Botão de finalizar compra', 'text'),
          field('view_cart_text', 'Botão de ver carrinho', 'text'),
          field('search_placeholder_text', 'Texto do campo de busca', 'text'),
          field('filter_text', 'Botão de filtrar', 'text'),
          field('clear_filters_text', 'Botão de limpar filtros', 'text'),
          field('loading_message', 'Mensagem de carregamento', 'text'),
          field('empty_cart_message', 'Mensagem de carrinho vazio', 'text'),
          field('no_products_message', 'Mensagem de nenhum produto encontrado', 'text'),
        ],
      },
    ],
  },
  {
    id: 'design',
    label: 'Design',
    groups: [
      {
        title: 'Cores principais',
        fields: colors([
          ['primary_color', 'Cor primária'],
          ['secondary_color', 'Cor secundária'],
          ['accent_color', 'Cor de destaque'],
          ['background_color', 'Fundo da página'],
          ['text_color', 'Texto'],
          ['home_title_color', 'Título da página inicial'],
          ['link_color', 'Links'],
          ['icon_color', 'Ícones'],
          ['nav_color', 'Menu de navegação'],
          ['breadcrumb_color', 'Trilha de navegação'],
        ]),
      },
      {
        title: 'Botões',
        fields: [
          ...buttonColors('primary', 'principal'),
          ...buttonColors('secondary', 'secundário'),
          ...buttonColors('success', 'de sucesso'),
          ...buttonColors('danger', 'de perigo'),
        ],
      },
      {
        title: 'Produtos',
        fields: colors([
          ['product_title_color', 'Nome do produto'],
          ['product_description_color', 'Descrição do produto'],
          ['product_price_color', 'Preço'],
        ]),
      },
      {
        title: 'Cabeçalho, rodapé, cartões e campos',
        fields: colors([
          ['header_background_color', 'Fundo do cabeçalho'],
          ['header_text_color', 'Texto do cabeçalho'],
          ['footer_background_color', 'Fundo do rodapé'],
          ['footer_text_color', 'Texto do rodapé'],
          ['card_background_color', 'Fundo dos cartões'],
          ['card_border_color', 'Borda dos cartões'],
          ['input_background_color', 'Fundo dos campos'],
          ['input_border_color', 'Borda dos campos'],
        ]),
      },
      {
        title: 'Modo escuro',
        fields: [
          field('enable_dark_mode', 'Oferecer modo escuro', 'checkbox', {
            hint: 'Segue o aparelho do cliente, que também pode escolher no cabeçalho da loja.',
          }),
        ],
      },
    ],
  },
  {
    id: 'tipografia',
    label: 'Tipografia',
    groups: [
      {
        title: 'Fontes',
        fields: [
          field('font_family', 'Fonte do texto', 'select', { options: FONT_OPTIONS }),
          field('heading_font', 'Fonte dos títulos', 'select', { options: FONT_OPTIONS }),
          field('base_font_size', 'Tamanho base do texto', 'length', { hint: LENGTH_HINT }),
          field('heading_font_weight', 'Peso dos títulos', 'select', { options: WEIGHT_OPTIONS }),
        ],
      },
      {
        title: 'Produtos',
        fields: [
          field('product_title_font_size', 'Tamanho do nome do produto', 'length', {
            hint: LENGTH_HINT,
          }),
          field('product_title_font_weight', 'Peso do nome do produto', 'select', {
            options: WEIGHT_OPTIONS,
          }),
          field('product_description_font_size', 'Tamanho da descrição do produto', 'length', {
            hint: LENGTH_HINT,
          }),
          field('product_price_font_size', 'Tamanho do preço', 'length', { hint: LENGTH_HINT }),
          field('product_price_font_weight', 'Peso do preço', 'select', {
            options: WEIGHT_OPTIONS,
          }),
        ],
      },
    ],
  },
  {
    id: 'layout',
    label: 'Layout',
    groups: [
      {
        title: 'Cantos e espaços',
        fields: [
          field('card_border_radius', 'Arredondamento dos cartões', 'length', {
            hint: LENGTH_HINT,
          }),
          field('button_border_radius', 'Arredondamento dos botões', 'length', {
            hint: LENGTH_HINT,
          }),
          field('card_padding', 'Espaço interno dos cartões', 'length', { hint: LENGTH_HINT }),
          field('button_padding_x', 'Espaço interno dos botões (nas laterais)', 'length', {
            hint: LENGTH_HINT,
          }),
          field('button_padding_y', 'Espaço interno dos botões (em cima e embaixo)', 'length', {
            hint: LENGTH_HINT,
          }),
          field('section_spacing', 'Espaço entre as seções', 'length', { hint: LENGTH_HINT }),
          field('container_max_width', 'Largura máxima do conteúdo', 'length', {
            hint: LENGTH_HINT,
          }),
        ],
      },
      {
        title: 'Animações',
        fields: [
          field('hover_transition_duration', 'Duração das animações', 'duration', {
            hint: 'Use um valor como 200ms ou 0.3s.',
          }),
          field('button_hover_scale', 'Aumento dos botões ao passar o mouse', 'decimal', {
            hint: 'Entre 0.5 e 2; 1 não aumenta.',
            step: '0.01',
          }),
          field('card_hover_scale', 'Aumento dos cartões ao passar o mouse', 'decimal', {
            hint: 'Entre 0.5 e 2; 1 não aumenta.',
            step: '0.01',
          }),
        ],
      },
      {
        title: 'Cabeçalho e rodapé',
        fields: [
          field('header_style', 'Estilo do cabeçalho', 'select', {
            options: [
              { value: 'classic', label: 'Clássico (logo à esquerda)' },
              { value: 'centered', label: 'Centralizado (logo no meio)' },
            ],
          }),
          field('footer_style', 'Estilo do rodapé', 'select', {
            options: [
              { value: 'full', label: 'Completo' },
              { value: 'compact', label: 'Compacto' },
            ],
          }),
        ],
      },
    ],
  },
  {
    id: 'contato',
    label: 'Contato',
    groups: [
      {
        title: 'Canais de atendimento',
        description: 'Aparecem no rodapé e na página Contato; os vazios ficam de fora.',
        fields: [
          field('contact_email', 'E-mail', 'email', { placeholder: 'contato@minhaloja.com.br' }),
          field('contact_phone', 'Telefone', 'tel', { placeholder: '(11) 4000-1234' }),
          field('contact_whatsapp', 'WhatsApp', 'tel', {
            hint: 'Com código do país e DDD, como 5511987654321.',
          }),
          field('contact_address', 'Endereço', 'textarea'),
        ],
      },
      {
        title: 'Identificação da empresa',
        description:
          'O rodapé mostra quem vende, como pede o Decreto 7.962/2013: razão social, CNPJ, ' +
          'endereço e contato.',
        fields: [
          field('legal_name', 'Razão social', 'text', { placeholder: 'Minha Loja Comércio Ltda.' }),
          field('cnpj', 'CNPJ', 'text', {
            placeholder: '12.345.678/0001-95',
            hint: 'Aceita também o CNPJ alfanumérico.',
          }),
        ],
      },
      {
        title: 'Rodapé',
        fields: [field('footer_text', 'Texto do rodapé', 'textarea')],
      },
    ],
  },
  {
    id: 'redes-sociais',
    label: 'Redes sociais',
    groups: [
      {
        title: 'Perfis da loja',
        description: 'Links completos, como https://instagram.com/minhaloja.',
        fields: [
          field('facebook_url', 'Facebook', 'url'),
          field('instagram_url', 'Instagram', 'url'),
          field('twitter_url', 'X (Twitter)', 'url'),
          field('youtube_url', 'YouTube', 'url'),
          field('linkedin_url', 'LinkedIn', 'url'),
          field('tiktok_url', 'TikTok', 'url'),
        ],
      },
    ],
  },
  {
    id: 'seo',
    label: 'SEO & Analytics',
    groups: [
      {
        title: 'Buscadores',
        fields: [
          field('meta_title', 'Título para buscadores', 'text'),
          field('meta_description', 'Descrição para buscadores', 'textarea'),
          field('meta_keywords', 'Palavras-chave', 'text', { hint: 'Separadas por vírgula.' }),
          field('meta_author', 'Autor', 'text'),
          field('meta_robots', 'Instruções para robôs de busca', 'text', {
            hint: 'Por exemplo "index, follow" (aparecer nas buscas) ou "noindex, nofollow".',
          }),
          field('canonical_url', 'Endereço principal da loja', 'url', {
            placeholder: 'https://minhaloja.com.br',
          }),
        ],
      },
      {
        title: 'Compartilhamento em redes sociais',
        fields: [
          field('og_title', 'Título ao compartilhar', 'text'),
          field('og_description', 'Descrição ao compartilhar', 'textarea'),
          field('og_image_url', 'Imagem ao compartilhar', 'url'),
          field('og_type', 'Tipo de página', 'select', {
            options: [
              { value: 'website', label: 'Site (website)' },
              { value: 'article', label: 'Artigo (article)' },
            ],
          }),
          field('twitter_card', 'Cartão no X (Twitter)', 'select', {
            options: [
              { value: 'summary', label: 'Resumo' },
              { value: 'summary_large_image', label: 'Resumo com imagem grande' },
            ],
          }),
          field('twitter_site', 'Perfil da loja no X', 'text', { placeholder: '@minhaloja' }),
          field('twitter_title', 'Título no X', 'text'),
          field('twitter_description', 'Descrição no X', 'textarea'),
          field('twitter_image_url', 'Imagem no X', 'url'),
        ],
      },
      {
        title: 'Dados estruturados',
        fields: [
          field('schema_type', 'Tipo de negócio', 'select', {
            options: [
              { value: 'OnlineStore', label: 'Loja on-line' },
              { value: 'Store', label: 'Loja física' },
              { value: 'LocalBusiness', label: 'Negócio local' },
              { value: 'Organization', label: 'Empresa' },
            ],
          }),
          field('schema_description', 'Descrição do negócio', 'textarea'),
        ],
      },
      {
        title: 'Catálogo para Google e Meta',
        panel: 'product-feeds',
        fields: [],
      },
      {
        title: 'Rastreamento e anúncios',
        description: TRACKING_HINT,
        fields: [
          field('google_analytics_id', 'Google Analytics', 'text', {
            placeholder: 'G-XXXXXXXXXX',
          }),
          field('google_tag_manager_id', 'Google Tag Manager', 'text', {
            placeholder: 'GTM-XXXXXXX',
          }),
          field('facebook_pixel_id', 'Pixel do Facebook', 'text', {
            placeholder: '123456789012345',
          }),
          field('google_ads_conversion_id', 'Google Ads: ID de conversão', 'text', {
            placeholder: 'AW-123456789',
          }),
          field('google_ads_conversion_label', 'Google Ads: rótulo de conversão', 'text'),
          field('hotjar_id', 'Hotjar', 'text', { placeholder: '1234567' }),
          field('clarity_id', 'Microsoft Clarity', 'text', { placeholder: 'abcdefghij' }),
          field('tiktok_pixel_id', 'Pixel do TikTok', 'text'),
          field('pinterest_tag_id', 'Tag do Pinterest', 'text'),
          field('snapchat_pixel_id', 'Pixel do Snapchat', 'text'),
        ],
      },
      {
        title: 'Scripts personalizados',
        description: `${TRACKING_HINT} Cole apenas códigos de serviços em que você confia.`,
        fields: [
          field('custom_head_scripts', 'Scripts no cabeçalho da página (<head>)', 'script'),
          field('custom_body_scripts', 'Scripts no início da página (<body>)', 'script'),
          field('custom_footer_scripts', 'Scripts no fim da página', 'script'),
        ],
      },
    ],
  },
  {
    id: 'avancado',
    label: 'Avançado',
    groups: [
      {
        title: 'Recursos da loja',
        fields: [
          field('enable_reviews', 'Avaliações de produtos', 'checkbox'),
          field('enable_wishlist', 'Lista de favoritos', 'checkbox'),
          field('enable_chat', 'Botão de conversa pelo WhatsApp', 'checkbox', {
            hint: 'Aparece quando o WhatsApp está preenchido na aba Contato.',
          }),
          field('maintenance_mode', 'Modo de manutenção', 'checkbox', {
            hint: 'A loja mostra um aviso de manutenção a todos, menos aos administradores conectados.',
          }),
        ],
      },
      {
        title: 'Vendas e entrega',
        fields: [
          field('shipping_mode', 'Frete', 'select', {
            options: [
              { value: 'free', label: 'Frete grátis para todo o Brasil' },
              { value: 'flat_rate', label: 'Frete fixo' },
            ],
          }),
          field('default_shipping_cost_cents', 'Valor do frete fixo', 'money'),
          field('free_shipping_threshold_cents', 'Frete grátis a partir de', 'money', {
            hint: 'Com frete fixo, compras a partir deste valor não pagam frete; 0 desliga.',
          }),
          field('shipping_origin_cep', 'CEP de origem dos envios', 'text', {
            hint:
              'Com frete por transportadora (Melhor Envio), as cotações partem deste CEP. ' +
              'Enquanto estiver vazio, vale o frete acima.',
          }),
          field('shipping_origin_street', 'Rua de origem dos envios', 'text', {
            hint:
              'Endereço do remetente nas etiquetas do Melhor Envio, com a razão social, o CNPJ, ' +
              'o telefone e o e-mail da loja.',
          }),
          field('shipping_origin_number', 'Número', 'text'),
          field('shipping_origin_complement', 'Complemento', 'text'),
          field('shipping_origin_district', 'Bairro', 'text'),
          field('shipping_origin_city', 'Cidade', 'text'),
          field('shipping_origin_state', 'Estado (sigla)', 'text', { placeholder: 'SP' }),
          field('default_weight_grams', 'Peso padrão do pacote (g)', 'integer', {
            hint: 'Para variantes sem peso cadastrado.',
          }),
          field('default_length_cm', 'Comprimento padrão (cm)', 'integer'),
          field('default_width_cm', 'Largura padrão (cm)', 'integer'),
          field('default_height_cm', 'Altura padrão (cm)', 'integer'),
          field('shipping_services', 'Serviços de envio oferecidos', 'text', {
            hint:
              'Números dos serviços do Melhor Envio separados por vírgula, por exemplo 1 para ' +
              'o PAC e 2 para o SEDEX. Vazio: todos os da sua conta.',
          }),
          field('shipping_markup_cents', 'Acréscimo no frete (valor)', 'money', {
            hint: 'Somado ao preço da transportadora, por exemplo para a embalagem.',
          }),
          field('shipping_markup_percent', 'Acréscimo no frete (%)', 'integer'),
          field('shipping_handling_days', 'Dias para postar o pedido', 'integer', {
            hint: 'Dias úteis somados ao prazo da transportadora.',
          }),
          field('invoice_on', 'Emissão da NF-e (Bling)', 'select', {
            options: [
              { value: 'manual', label: 'Quando a equipe clicar em “Emitir NF-e”' },
              { value: 'paid', label: 'Assim que o pedido pago chegar ao Bling' },
            ],
            hint: 'Conecte o Bling em Integrações.',
          }),
          field('min_order_value_cents', 'Valor mínimo do pedido', 'money', {
            hint: '0: sem valor mínimo.',
          }),
          field('estimated_delivery_days', 'Prazo de entrega (dias úteis)', 'integer'),
          field('return_window_days', 'Prazo para troca e devolução (dias corridos)', 'integer', {
            hint: 'O Código de Defesa do Consumidor garante pelo menos 7 dias.',
          }),
          field('products_per_page', 'Produtos por página', 'integer'),
          field('max_quantity_per_item', 'Máximo de unidades por produto', 'integer', {
            hint: 'De 1 a 999 em cada pedido, mesmo com mais estoque. Vale no carrinho e no pedido.',
          }),
          field('max_pending_orders', 'Pedidos aguardando pagamento por cliente', 'integer', {
            hint:
              'De 1 a 50, contados por navegador, por CPF e por endereço IP. Pagar, ' +
              'cancelar ou deixar vencer o PIX libera um novo pedido.',
          }),
          field(
            'abandoned_checkout_delay_minutes',
            'E-mail de carrinho abandonado após (minutos)',
            'integer',
            {
              hint:
                'Quem digitou o e-mail no checkout e não fez o pedido recebe um e-mail com o link ' +
                'do carrinho depois deste tempo, uma única vez. 0 desliga.',
            },
          ),
          field('enable_local_pickup', 'Retirada na loja', 'checkbox'),
        ],
      },
      {
        title: 'Pagamentos',
        panel: 'payment-provider',
        description:
          'As formas de pagamento que as páginas da loja anunciam, entre as que o provedor de ' +
          'pagamento recebe: ligar uma que ele não recebe não tem efeito.',
        fields: [
          field('enable_pix', 'PIX', 'checkbox'),
          field('enable_credit_card', 'Cartão de crédito', 'checkbox'),
          field('enable_debit_card', 'Cartão de débito', 'checkbox'),
          field('enable_boleto', 'Boleto bancário', 'checkbox'),
          field('enable_paypal', 'PayPal', 'checkbox'),
          field('pix_discount_percent', 'Desconto no PIX (%)', 'integer', {
            hint: '0: sem desconto. Aparece ao lado dos preços e é descontado no pedido.',
          }),
          field('coupon_stacks_with_pix', 'Cupom soma com o desconto no PIX', 'checkbox', {
            hint: 'Desligado, vale o maior dos dois descontos, e o carrinho diz qual.',
          }),
          field('max_installments', 'Parcelas no cartão', 'integer', {
            hint: '1: não anuncia parcelas. Vale só com cartão de crédito ligado.',
          }),
          field('min_installment_cents', 'Valor mínimo da parcela', 'money'),
          field(
            'installments_interest_free',
            'Parcelas sem juros (a loja paga os juros)',
            'checkbox',
            {
              hint:
                'Só então as páginas dizem “sem juros”. No Mercado Pago, ative o parcelamento sem ' +
                'juros no painel da conta com o mesmo número de parcelas.',
            },
          ),
          field('boleto_due_days', 'Prazo do boleto (dias úteis)', 'integer', {
            hint:
              'O estoque fica reservado até o vencimento e a compensação; boleto não pago cancela ' +
              'o pedido.',
          }),
        ],
      },
      {
        title: 'PIX com a chave da loja',
        description:
          'Usados quando o servidor recebe pagamentos pelo PIX da própria loja: o cliente paga ' +
          'com o código gerado a partir destes dados e a equipe confirma o pagamento em Pedidos.',
        fields: [
          field('pix_key', 'Chave PIX', 'text', {
            hint: 'CPF, CNPJ, e-mail, telefone (+55…) ou chave aleatória.',
          }),
          field('pix_merchant_name', 'Nome do recebedor', 'text', { hint: 'Até 25 letras.' }),
          field('pix_merchant_city', 'Cidade do recebedor', 'text', { hint: 'Até 15 letras.' }),
          field('pix_expiration_minutes', 'Prazo para pagar (minutos)', 'integer', {
            hint: 'Depois dele, o pedido não pago é cancelado e o estoque volta.',
          }),
        ],
      },
      {
        title: 'Integrações do servidor',
        panel: 'integrations',
        description:
          'Chaves secretas ficam no servidor (variáveis de ambiente) ou guardadas criptografadas ' +
          'em Pagamentos, e nunca aparecem aqui.',
        fields: [],
      },
    ],
  },
  {
    id: 'paginas',
    label: 'Páginas',
    groups: [
      {
        title: 'Páginas de conteúdo',
        description:
          'Escreva em Markdown: **negrito**, *itálico*, "## Título", listas com "- " e ' +
          'links como [texto](https://…). Em branco, a página mostra o texto padrão da loja, ' +
          'montado com os dados das outras abas.',
        fields: [
          field('about_page_text', 'Sobre nós', 'markdown'),
          field('return_policy_text', 'Política de troca e devolução', 'markdown'),
          field('privacy_policy_text', 'Política de privacidade', 'markdown'),
          field('faq_page_text', 'Perguntas frequentes', 'markdown'),
          field('contact_page_text', 'Contato', 'markdown'),
        ],
      },
    ],
  },
];

export const SETTINGS_FORM_FIELDS: readonly FieldSpec[] = SETTINGS_TABS.flatMap((tab) =>
  tab.groups.flatMap((group) => group.fields),
);

const TAB_OF_FIELD = new Map<string, SettingsTabId>(
  SETTINGS_TABS.flatMap((tab) =>
    tab.groups.flatMap((group) =>
      group.fields.flatMap((spec) => [
        [spec.key, tab.id] as const,
        ...(spec.upload ? [[spec.upload, tab.id] as const] : []),
      ]),
    ),
  ),
);

/** The tab holding a form field, or null for a name that is no field. */
export function tabOfField(key: string): SettingsTabId | null {
  return TAB_OF_FIELD.get(key) ?? null;
}

/** A tab id from the URL (`?aba=design`); anything else opens the first tab. */
export function settingsTabFrom(value: string | null | undefined): SettingsTabId {
  return (SETTINGS_TAB_IDS as readonly string[]).includes(value ?? '')
    ? (value as SettingsTabId)
    : 'basico';
}

/** The longest text a setting takes, for the input's maxLength (none for other settings). */
export function fieldMaxLength(key: SettingKey): number | undefined {
  let schema: unknown = settingsSchema.shape[key];
  if (schema instanceof z.ZodDefault) schema = schema.unwrap();
  return schema instanceof z.ZodString ? (schema.maxLength ?? undefined) : undefined;
}

// Reading the form ---------------------------------------------------------------------------

/** What the form shows for a setting's value. */
function formValue(spec: FieldSpec, value: StoreSettings[SettingKey]): string {
  switch (spec.kind) {
    case 'checkbox':
      return value === true ? 'on' : '';
    case 'money':
      return formatReaisInput(value as number);
    default:
      return String(value);
  }
}

/** Every field's value as the form shows it, by setting key. */
export function settingsFormValues(settings: StoreSettings): Record<string, string> {
  return Object.fromEntries(
    SETTINGS_FORM_FIELDS.map((spec) => [spec.key, formValue(spec, settings[spec.key])]),
  );
}

const MISSING = 'Este campo não veio no formulário. Recarregue a página e tente novamente.';
const NOT_AN_AMOUNT = 'Valor inválido: informe em reais, como 10,00.';

/** The highest amount a money setting takes, as its schema says (100.000,00 reais). */
const MONEY_MAX_CENTS = 100_000_00;

function toInteger(text: string): number | string {
  return /^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : text;
}

function toDecimal(text: string): number | string {
  const normalized = text.trim().replace(',', '.');
  return /^-?\d{1,4}(\.\d{1,4})?$/.test(normalized) ? Number(normalized) : text;
}

// Each field's schema takes the form's string and hands the setting's own schema a value of the
// setting's type; the setting's schema then decides (and words the message).
function formFieldSchema(spec: FieldSpec): z.ZodType {
  // Typed loosely on purpose: each branch hands it the type its setting takes.
  const target = settingsSchema.shape[spec.key] as unknown as z.ZodType<unknown, never>;
  const text = z.string({ error: MISSING });
  switch (spec.kind) {
    case 'checkbox':
      return z
        .enum(['on'], { error: 'Use a caixa de marcar.' })
        .optional()
        .transform((value) => value === 'on')
        .pipe(target);
    case 'integer':
      return text.transform(toInteger).pipe(target);
    case 'decimal':
      return text.transform(toDecimal).pipe(target);
    case 'money':
      return text
        .transform((value, context) => {
          const result = parseReais(value, { exactCents: true });
          if ('error' in result) {
            context.addIssue({ code: 'custom', message: NOT_AN_AMOUNT });
            return z.NEVER;
          }
          if (result.cents > MONEY_MAX_CENTS) {
            context.addIssue({
              code: 'custom',
              message: `Use no máximo ${formatReaisInput(MONEY_MAX_CENTS)} reais.`,
            });
            return z.NEVER;
          }
          return result.cents;
        })
        .pipe(target);
    default:
      return text.pipe(target);
  }
}

const FIELD_SCHEMAS = new Map<string, z.ZodType>(
  SETTINGS_FORM_FIELDS.map((spec) => [spec.key, formFieldSchema(spec)]),
);

export type SettingsFormData = Partial<StoreSettings> & {
  /** The fingerprints of the values the form was loaded with (see admin-form.server.ts). */
  _baseline?: string;
};

/** The image settings staff may also upload, by the name of their file input. */
export const BRAND_UPLOADS = {
  logo_upload: 'logo_url',
  favicon_upload: 'favicon_url',
  banner_upload: 'banner_url',
} as const satisfies Record<string, SettingKey>;

export type BrandUploadName = keyof typeof BRAND_UPLOADS;

export type BrandUploads = Partial<Record<BrandUploadName, File>>;

// z.custom rather than z.file, as in the product form: zod's file code would reach the checkout.
const uploadField = z
  .custom<File>((value) => value instanceof File, { error: MEDIA_MESSAGES.notAnImage })
  .optional()
  // An empty file input still sends one nameless, empty file: no upload.
  .transform((file) => (file && (file.size > 0 || file.name !== '') ? file : undefined))
  .refine((file) => !file || file.size <= MAX_IMAGE_BYTES, { error: MEDIA_MESSAGES.tooBig });

/** The settings form, read the same way by the browser (before sending) and the server. */
export const settingsFormSchema = z.object({
  ...Object.fromEntries(FIELD_SCHEMAS),
  ...Object.fromEntries(Object.keys(BRAND_UPLOADS).map((name) => [name, uploadField])),
  _baseline: z.string().max(20_000).optional(),
}) as unknown as z.ZodType<SettingsFormData & BrandUploads>;

/**
 * The settings as they would look with the form's current values: each valid value replaces the
 * saved one, and an invalid or half-typed one keeps the saved value, so a preview never breaks.
 */
export function previewSettings(form: FormData, saved: StoreSettings): StoreSettings {
  const preview: Record<string, unknown> = { ...saved };
  for (const [key, schema] of FIELD_SCHEMAS) {
    const value = form.get(key);
    const parsed = schema.safeParse(typeof value === 'string' ? value : undefined);
    if (parsed.success) preview[key] = parsed.data;
  }
  return preview as StoreSettings;
}
