import type { CategoryRecord, ProductRecord, VariantRecord } from '~/modules/catalog';
import type { CouponRecord } from '~/modules/coupons/index.admin.server';
import type { ReviewRecord } from '~/modules/reviews/index.server';
import type { StoreSettings } from '~/modules/settings';

// Fixed ids let `npm run db:seed` put the sample rows back without touching the store's own.
const id = (n: number) => `5a3b1e00-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const AUDIO = id(0xc01);
const COMPUTING = id(0xc02);
const ACCESSORIES = id(0xc03);
const HOME = id(0xc04);
const CLOTHING = id(0xc05);

export const SAMPLE_CATEGORIES: CategoryRecord[] = [
  { id: AUDIO, name: 'Áudio', description: 'Fones de ouvido, headsets e caixas de som.' },
  { id: COMPUTING, name: 'Informática', description: 'Teclados, mouses e monitores.' },
  { id: ACCESSORIES, name: 'Acessórios', description: 'Carregadores, relógios e mais.' },
  { id: HOME, name: 'Casa', description: 'Tapetes e decoração para o home office.' },
  { id: CLOTHING, name: 'Vestuário', description: 'Camisetas da loja.' },
];

const images = (slug: string) => [`/sample/${slug}-1.svg`, `/sample/${slug}-2.svg`];

/** Newest first, as the storefront lists them. */
export const SAMPLE_PRODUCTS: ProductRecord[] = [
  {
    id: id(0xd01),
    name: 'Fone de Ouvido Bluetooth Pro',
    description:
      'Fone over-ear com cancelamento ativo de ruído, até 40 horas de bateria e carregamento rápido USB-C. Almofadas macias para usar o dia todo.',
    priceCents: 29990,
    stockQuantity: 75,
    categoryId: AUDIO,
    imageUrls: images('fone-bluetooth-pro'),
  },
  {
    id: id(0xd02),
    name: 'Caixa de Som Portátil à Prova d’Água',
    description:
      'Som potente de 20 W com graves reforçados, certificação IP67 e 12 horas de reprodução. Leve para a praia, a piscina ou a trilha.',
    priceCents: 18990,
    stockQuantity: 30,
    categoryId: AUDIO,
    imageUrls: images('caixa-de-som-portatil'),
  },
  {
    id: id(0xd03),
    name: 'Headset Gamer com Microfone',
    description:
      'Áudio surround 7.1, microfone removível com redução de ruído e arco ajustável. Compatível com PC, console e celular.',
    priceCents: 24990,
    stockQuantity: 5,
    categoryId: AUDIO,
    imageUrls: images('headset-gamer'),
  },
  {
    id: id(0xd04),
    name: 'Teclado Mecânico RGB',
    description:
      'Switches mecânicos táteis, iluminação RGB por tecla, layout ABNT2 com Ç e apoio de pulso removível.',
    priceCents: 34990,
    stockQuantity: 40,
    categoryId: COMPUTING,
    imageUrls: images('teclado-mecanico-rgb'),
  },
  {
    id: id(0xd05),
    name: 'Mouse Sem Fio Ergonômico',
    description:
      'Formato anatômico que reduz a tensão no punho, sensor de 4.000 DPI, conexão 2.4 GHz ou Bluetooth e bateria para meses.',
    priceCents: 12990,
    stockQuantity: 120,
    categoryId: COMPUTING,
    imageUrls: images('mouse-sem-fio'),
  },
  {
    id: id(0xd06),
    name: 'Monitor 27" Full HD',
    description:
      'Tela IPS de 27 polegadas, 75 Hz, bordas finas e ajuste de altura. Entradas HDMI e DisplayPort.',
    priceCents: 123456,
    stockQuantity: 12,
    categoryId: COMPUTING,
    imageUrls: images('monitor-27-full-hd'),
  },
  {
    id: id(0xd07),
    name: 'Carregador Rápido USB-C 65 W',
    description:
      'Carrega notebook, tablet e celular com a mesma fonte compacta. Tecnologia GaN, cabo USB-C de 1,5 m incluso.',
    priceCents: 15990,
    stockQuantity: 8,
    categoryId: ACCESSORIES,
    imageUrls: images('carregador-usb-c-65w'),
  },
  {
    id: id(0xd08),
    name: 'Smartwatch Fitness',
    description:
      'Monitor de frequência cardíaca e sono, GPS integrado, mais de 100 modos de treino e resistência à água até 50 m.',
    priceCents: 59990,
    stockQuantity: 0,
    categoryId: ACCESSORIES,
    imageUrls: images('smartwatch-fitness'),
  },
];

/** A product sold in sizes or colours, written with its variants (after SAMPLE_PRODUCTS). */
export interface SampleProductWithVariants {
  product: Omit<ProductRecord, 'stockQuantity'>;
  variants: VariantRecord[];
}

const SHIRT_SIZES = ['P', 'M', 'G', 'GG'];
const SHIRT_COLOURS = [
  { name: 'Branca', color: '#f8fafc' },
  { name: 'Preta', color: '#1f2937' },
  { name: 'Azul', color: '#1d4ed8' },
];
// Sold out: a shopper sees these combinations offered but not selectable.
const SHIRT_SOLD_OUT = new Set(['P Preta', 'GG Azul']);

/** A rug in three sizes at three prices, and a T-shirt in four sizes and three colours. */
export const SAMPLE_PRODUCTS_WITH_VARIANTS: SampleProductWithVariants[] = [
  {
    product: {
      id: id(0xd09),
      name: 'Tapete Geométrico para Sala',
      description:
        'Tapete de fibra sintética antiderrapante com estampa geométrica em terracota e grafite. Fácil de limpar, ideal para sala e home office.',
      priceCents: 29990,
      categoryId: HOME,
      imageUrls: images('tapete-geometrico'),
      options: [
        {
          name: 'Tamanho',
          values: [{ name: '1,5 × 2 m' }, { name: '2 × 2,5 m' }, { name: '2 × 3 m' }],
        },
      ],
    },
    variants: [
      { id: id(0xa01), option1: '1,5 × 2 m', priceCents: 29990, stockQuantity: 10 },
      { id: id(0xa02), option1: '2 × 2,5 m', priceCents: 44990, stockQuantity: 6 },
      {
        id: id(0xa03),
        option1: '2 × 3 m',
        priceCents: 59990,
        compareAtPriceCents: 69990,
        stockQuantity: 3,
      },
    ],
  },
  {
    product: {
      id: id(0xd0a),
      name: 'Camiseta Básica de Algodão',
      description:
        'Camiseta unissex de algodão penteado, gola careca reforçada e caimento regular. Não desbota na lavagem.',
      priceCents: 7990,
      categoryId: CLOTHING,
      imageUrls: SHIRT_COLOURS.map(
        ({ name }) => `/sample/camiseta-basica-${name.toLowerCase()}.svg`,
      ),
      options: [
        { name: 'Tamanho', values: SHIRT_SIZES.map((name) => ({ name })) },
        { name: 'Cor', values: SHIRT_COLOURS },
      ],
    },
    variants: SHIRT_SIZES.flatMap((size, s) =>
      SHIRT_COLOURS.map(({ name: colour }, c) => ({
        id: id(0xb00 + s * SHIRT_COLOURS.length + c + 1),
        option1: size,
        option2: colour,
        // The biggest size costs a little more.
        priceCents: size === 'GG' ? 8990 : null,
        compareAtPriceCents: 9990,
        stockQuantity: SHIRT_SOLD_OUT.has(`${size} ${colour}`) ? 0 : 8 + s * 2,
        imageUrls: [`/sample/camiseta-basica-${colour.toLowerCase()}.svg`],
      })),
    ),
  },
];

export const SAMPLE_REVIEWS: ReviewRecord[] = [
  {
    id: id(0xe01),
    productId: id(0xd01),
    customerName: 'Mariana Souza',
    rating: 5,
    comment: 'O cancelamento de ruído é excelente e a bateria dura a semana inteira.',
  },
  {
    id: id(0xe02),
    productId: id(0xd01),
    customerName: 'Rafael Lima',
    rating: 4,
    comment: 'Muito confortável. Só queria que viesse com um estojo rígido.',
  },
  {
    id: id(0xe03),
    productId: id(0xd04),
    customerName: 'Juliana Alves',
    rating: 5,
    comment: 'Digitação macia e o layout ABNT2 faz toda a diferença.',
  },
  {
    id: id(0xe04),
    productId: id(0xd05),
    customerName: 'Carlos Pereira',
    rating: 5,
    comment: null,
  },
  {
    id: id(0xe05),
    productId: id(0xd05),
    customerName: '',
    rating: 4,
    comment: 'Bom custo-benefício, chegou antes do prazo.',
  },
  {
    id: id(0xe06),
    productId: id(0xd02),
    customerName: 'Fernanda Rocha',
    rating: 5,
    comment: 'Levei para a praia e aguentou água e areia sem problema.',
  },
];

/** Two coupons as a store starts with: a welcome discount and free shipping from R$ 150. */
export const SAMPLE_COUPONS: CouponRecord[] = [
  {
    id: id(0xf01),
    code: 'BEMVINDO10',
    kind: 'percent',
    value: 10,
    firstPurchaseOnly: true,
  },
  {
    id: id(0xf02),
    code: 'FRETEGRATIS',
    kind: 'free_shipping',
    value: 0,
    minSubtotalCents: 15_000,
  },
];

/**
 * The sample store's slogan, identity and contacts, so a fresh install shows a footer as the law asks
 * (Decreto 7.962/2013) and the merchant sees where their own data goes. Written on the first
 * start only; the CNPJ is the Receita Federal's documentation example, valid but nobody's.
 */
export const SAMPLE_SETTINGS: Partial<StoreSettings> = {
  store_description: 'Tecnologia de qualidade com entrega para todo o Brasil.',
  legal_name: 'TechStore Comércio de Eletrônicos Ltda.',
  cnpj: '12.345.678/0001-95',
  contact_email: 'atendimento@techstore.com.br',
  contact_phone: '(11) 4000-1234',
  contact_whatsapp: '5511930001234',
  contact_address: 'Av. Paulista, 1000, sala 101, Bela Vista, São Paulo - SP, 01310-100',
  instagram_url: 'https://www.instagram.com/techstore',
  facebook_url: 'https://www.facebook.com/techstore',
};

/** Every sample product, newest first as the storefront lists them (those with variants last). */
export const SAMPLE_CATALOGUE: Pick<ProductRecord, 'id' | 'name' | 'priceCents' | 'categoryId'>[] =
  [...SAMPLE_PRODUCTS, ...SAMPLE_PRODUCTS_WITH_VARIANTS.map(({ product }) => product)];
