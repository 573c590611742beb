import { z } from 'zod';

import { singleLine, textError, tooLong, uuidField } from '~/lib/form';
import { parseReais } from '~/lib/reais';
import type { Toast } from '~/lib/toast';

import {
  IDENTIFIER_MAX_LENGTH,
  IDENTIFIER_MESSAGES,
  PRODUCT_CONDITIONS,
  parseGtin,
  parseIdentifierText,
} from './product-identifiers';
import type { ProductOption } from './schema';
import {
  checkOptions,
  checkVariants,
  optionsField,
  parseOptionalPrice,
  variantsField,
  type VariantValues,
} from './admin-variants';
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_UPLOAD,
  MEDIA_MESSAGES,
  parseMediaPath,
} from '~/modules/media';

/** The admin's product form (and the CSV import's rows), shared by the browser and the server. */

export const PRODUCT_LIMITS = {
  name: 200,
  description: 5000,
  images: 20,
  imageUrl: 2000,
  stock: 1_000_000,
} as const;

export const PRODUCT_MESSAGES = {
  name: 'Informe o nome do produto.',
  nameTooLong: tooLong(PRODUCT_LIMITS.name),
  description: 'Informe a descrição do produto.',
  // Written as Brazilians write thousands, which the checkout's tooLong() does not do.
  descriptionTooLong: `Use no máximo ${PRODUCT_LIMITS.description.toLocaleString('pt-BR')} caracteres.`,
  price: 'Informe o preço.',
  priceInvalid: 'Preço inválido. Use o formato 1.234,56.',
  priceNegative: 'O preço não pode ser negativo.',
  priceZero: 'O preço deve ser maior que zero.',
  priceTooHigh: 'Preço alto demais.',
  priceDecimals: 'Use no máximo duas casas decimais (centavos).',
  stock: 'Informe a quantidade em estoque.',
  stockInvalid: 'Use um número inteiro de unidades, como 10.',
  stockNegative: 'O estoque não pode ser negativo.',
  stockTooHigh: 'Use no máximo 1.000.000 unidades.',
  category: 'Selecione a categoria.',
  categoryGone: 'A categoria escolhida não existe mais. Escolha outra.',
  images: 'Adicione pelo menos uma imagem: uma URL ou um arquivo.',
  tooManyImages: `Use no máximo ${PRODUCT_LIMITS.images} imagens por produto.`,
  formExpired: 'Formulário expirado. Recarregue a página e tente de novo.',
  formReused: 'Este formulário já foi usado. Recarregue a página e tente novamente.',
  notFound: 'Produto não encontrado. Ele pode ter sido excluído.',
  created: 'Produto criado com sucesso!',
  updated: 'Produto atualizado com sucesso!',
  deleted: 'Produto excluído com sucesso!',
  confirmDelete: 'Tem certeza que deseja excluir este produto?',
  saveError: (message: string) => `Erro ao salvar produto: ${message}`,
  deleteError: (message: string) => `Erro ao excluir produto: ${message}`,
  loadError: (message: string) => `Erro ao buscar produtos: ${message}`,
} as const;

type Parsed = { value: number } | { error: string };

/**
 * A price as staff type it ("1.234,56", "1234,56", "1234.56", "R$ 10") in cents. More than two
 * decimals is refused rather than rounded: it is a typing mistake, not a price.
 */
export function parsePriceText(text: string): Parsed {
  if (!text.trim()) return { error: PRODUCT_MESSAGES.price };
  const result = parseReais(text, { exactCents: true });
  if ('error' in result) {
    const message = {
      'not-a-number': PRODUCT_MESSAGES.priceInvalid,
      negative: PRODUCT_MESSAGES.priceNegative,
      'too-high': PRODUCT_MESSAGES.priceTooHigh,
      'too-many-decimals': PRODUCT_MESSAGES.priceDecimals,
    }[result.error];
    return { error: message };
  }
  if (result.cents === 0) return { error: PRODUCT_MESSAGES.priceZero };
  return { value: result.cents };
}

/** Units in stock: a whole number from 0 ("1.000" reads as a thousand). */
export function parseStockText(text: string): Parsed {
  const value = text.trim();
  if (!value) return { error: PRODUCT_MESSAGES.stock };
  if (/^-\s*\d/.test(value)) return { error: PRODUCT_MESSAGES.stockNegative };
  if (!/^\d+$|^\d{1,3}(\.\d{3})+$/.test(value)) return { error: PRODUCT_MESSAGES.stockInvalid };
  const units = Number(value.replace(/\./g, ''));
  if (units > PRODUCT_LIMITS.stock) return { error: PRODUCT_MESSAGES.stockTooHigh };
  return { value: units };
}

/** The image URLs typed in the form: separated by commas or line breaks, trimmed, blanks dropped. */
export function splitImageUrls(text: string, separator: RegExp = /[,\r\n]+/): string[] {
  return text
    .split(separator)
    .map((url) => url.trim())
    .filter(Boolean);
}

// The sample catalogue's pictures ship in public/sample.
const SAMPLE_IMAGE = /^\/sample\/[\w-]+\.(svg|png|jpe?g|webp|gif|avif)$/i;

/**
 * An image a product may show: an http(s) address, or one of our own images (an upload under
 * /media/ or a sample picture). Other paths of the site are refused: an <img> pointing at, say,
 * /admin/logout would make every visitor's browser request it.
 */
export function isAllowedImageUrl(url: string): boolean {
  if (url.length > PRODUCT_LIMITS.imageUrl || /[\s\p{Cc}]/u.test(url)) return false;
  if (url.startsWith('/')) return parseMediaPath(url) !== null || SAMPLE_IMAGE.test(url);
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && !!parsed.hostname;
}

function invalidImageMessage(url: string): string {
  const shown = url.length > 60 ? `${url.slice(0, 60)}…` : url;
  return `Endereço de imagem inválido: "${shown}". Use um endereço que comece com https://.`;
}

/** A brand or Google category as typed: one line, '' for none. */
const identifierText = (max: number) =>
  z
    .string({ error: textError(IDENTIFIER_MESSAGES.tooLong(max)) })
    .default('')
    .transform((value, context) => {
      const parsed = parseIdentifierText(value, max);
      if ('error' in parsed) {
        context.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.value;
    });

const fromParser = (parse: (value: string) => Parsed) =>
  z.string().transform((value, context) => {
    const parsed = parse(value);
    if ('error' in parsed) {
      context.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return parsed.value;
  });

export const productNameField = z
  .string({ error: textError(PRODUCT_MESSAGES.name) })
  .transform(singleLine)
  .pipe(
    z.string().min(1, PRODUCT_MESSAGES.name).max(PRODUCT_LIMITS.name, PRODUCT_MESSAGES.nameTooLong),
  );

export const productDescriptionField = z
  .string({ error: textError(PRODUCT_MESSAGES.description) })
  .trim()
  .min(1, PRODUCT_MESSAGES.description)
  .max(PRODUCT_LIMITS.description, PRODUCT_MESSAGES.descriptionTooLong);

export const productPriceField = z
  .string({ error: textError(PRODUCT_MESSAGES.price) })
  .pipe(fromParser(parsePriceText));

/** A list of image URLs in one text, each checked; repeated ones are kept once. */
export const imageUrlsField = (separator?: RegExp) =>
  z
    .string({ error: textError(PRODUCT_MESSAGES.images) })
    .max(PRODUCT_LIMITS.images * (PRODUCT_LIMITS.imageUrl + 2), PRODUCT_MESSAGES.tooManyImages)
    .transform((value) => [...new Set(splitImageUrls(value, separator))])
    .check((context) => {
      const bad = context.value.find((url) => !isAllowedImageUrl(url));
      if (bad !== undefined) {
        context.issues.push({
          code: 'custom',
          input: context.value,
          message: invalidImageMessage(bad),
        });
      }
    });

// z.custom rather than z.file: this schema runs in the browser too, where zod is one chunk shared
// with the storefront's checkout, and z.file would add its code to what every shopper downloads.
const file = z.custom<File>((value) => value instanceof File);

// An empty file input still sends one nameless, empty file.
const uploadsField = z
  .array(file)
  .default([])
  .transform((files) => files.filter((upload) => upload.size > 0 || upload.name !== ''))
  .pipe(
    z
      .array(file.refine((upload) => upload.size <= MAX_IMAGE_BYTES, MEDIA_MESSAGES.tooBig))
      .max(MAX_IMAGES_PER_UPLOAD, MEDIA_MESSAGES.tooMany),
  );

export const PRODUCT_LIST_PATH = '/admin/products';

/** Where a saved form goes back to: the product list (with its search and page), nowhere else. */
export function productListReturnPath(wanted: string | null): string {
  return wanted && wanted.length <= 2000 && /^\/admin\/products(\?[\x21-\x7e]*)?$/.test(wanted)
    ? wanted
    : PRODUCT_LIST_PATH;
}

export const productFormSchema = z
  .object({
    // Made when the form is shown: the new product's id, so sending the form twice creates one.
    id: uuidField(PRODUCT_MESSAGES.formExpired),
    name: productNameField,
    description: productDescriptionField,
    price: productPriceField,
    // A product without options: its one variant's stock and 'de' price (with options, each
    // variant's are in the grid).
    stockQuantity: z.string({ error: textError(PRODUCT_MESSAGES.stock) }).default(''),
    compareAtPrice: z.string({ error: textError(PRODUCT_MESSAGES.price) }).default(''),
    options: optionsField,
    variants: variantsField,
    categoryId: z
      .string({ error: textError(PRODUCT_MESSAGES.category) })
      .trim()
      .pipe(uuidField(PRODUCT_MESSAGES.category)),
    // For Google's and Meta's feeds (issue 39); a product without options has its one
    // variant's GTIN and MPN here, beside its stock.
    brand: identifierText(IDENTIFIER_MAX_LENGTH.brand),
    googleProductCategory: identifierText(IDENTIFIER_MAX_LENGTH.googleProductCategory),
    condition: z.enum(PRODUCT_CONDITIONS, { error: IDENTIFIER_MESSAGES.condition }).default('new'),
    gtin: z.string({ error: textError(IDENTIFIER_MESSAGES.gtin) }).default(''),
    mpn: z
      .string({ error: textError(IDENTIFIER_MESSAGES.tooLong(IDENTIFIER_MAX_LENGTH.mpn)) })
      .default(''),
    // The product's pictures in their order (the panel's list), and addresses typed to add after
    // them: an upload is shown as a picture, never as its /media/ path in a text box.
    imageUrls: imageUrlsField().default([]),
    newImageUrls: imageUrlsField().default([]),
    uploads: uploadsField,
    // 'dialog' when the form sits in the list's dialog: the answer is data, not a redirect.
    mode: z.enum(['page', 'dialog']).catch('page'),
    // The list page (with its search and page) to go back to.
    returnTo: z.string().transform(productListReturnPath).catch(PRODUCT_LIST_PATH),
  })
  .superRefine(
    (form, context) => {
      for (const issue of checkSold(form).issues) {
        context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
      }
      if (
        !Array.isArray(form.imageUrls) ||
        !Array.isArray(form.newImageUrls) ||
        !Array.isArray(form.uploads)
      ) {
        return;
      }
      const count = new Set([...form.imageUrls, ...form.newImageUrls]).size + form.uploads.length;
      if (count === 0) {
        context.addIssue({ code: 'custom', path: ['imageUrls'], message: PRODUCT_MESSAGES.images });
      } else if (count > PRODUCT_LIMITS.images) {
        context.addIssue({
          code: 'custom',
          path: ['imageUrls'],
          message: PRODUCT_MESSAGES.tooManyImages,
        });
      }
    },
    // Also when other fields are wrong, so every mistake shows at once.
    { when: () => true },
  )
  .transform((form) => {
    const {
      stockQuantity: _stock,
      compareAtPrice: _compareAt,
      gtin: _gtin,
      mpn: _mpn,
      newImageUrls,
      ...rest
    } = form;
    const imageUrls = [...new Set([...form.imageUrls, ...newImageUrls])];
    return { ...rest, imageUrls, ...checkSold(form).sold! };
  });

type SoldFields = {
  stockQuantity: unknown;
  compareAtPrice: unknown;
  gtin: unknown;
  mpn: unknown;
  options: unknown;
  variants: unknown;
};

/**
 * What the product sells, from the form: with options, the grid's variants; without, one
 * variant with the stock and 'de' price typed beside the price. Each mistake is named by the
 * field (or grid cell) it belongs to; `sold` is set when there is none.
 */
function checkSold(form: SoldFields): {
  sold?: { options: ProductOption[]; variants: VariantValues[]; stockQuantity: number };
  issues: { path: string; message: string }[];
} {
  // A field that could not be read has its own issue already.
  if (!Array.isArray(form.options) || !Array.isArray(form.variants)) {
    return { issues: [] };
  }
  const options = checkOptions(form.options);
  if (options.options.length > 0) {
    const variants = checkVariants(options.options, form.variants);
    const issues = [...options.issues, ...variants.issues];
    for (const [row, variant] of variants.variants.entries()) {
      const bad = variant.imageUrls.find((url) => !isAllowedImageUrl(url));
      if (bad !== undefined) {
        issues.push({ path: `variants.${row}.image`, message: invalidImageMessage(bad) });
      }
    }
    const stockQuantity = variants.variants.reduce((sum, v) => sum + v.stockQuantity, 0);
    return {
      issues,
      sold: issues.length
        ? undefined
        : { options: options.options, variants: variants.variants, stockQuantity },
    };
  }
  const issues = [...options.issues];
  const stock = parseStockText(typeof form.stockQuantity === 'string' ? form.stockQuantity : '');
  if ('error' in stock) issues.push({ path: 'stockQuantity', message: stock.error });
  const compareAt = parseOptionalPrice(
    typeof form.compareAtPrice === 'string' ? form.compareAtPrice : '',
  );
  if ('error' in compareAt) issues.push({ path: 'compareAtPrice', message: compareAt.error });
  const gtin = parseGtin(typeof form.gtin === 'string' ? form.gtin : '');
  if ('error' in gtin) issues.push({ path: 'gtin', message: gtin.error });
  const mpn = parseIdentifierText(
    typeof form.mpn === 'string' ? form.mpn : '',
    IDENTIFIER_MAX_LENGTH.mpn,
  );
  if ('error' in mpn) issues.push({ path: 'mpn', message: mpn.error });
  if (
    issues.length ||
    'error' in stock ||
    'error' in compareAt ||
    'error' in gtin ||
    'error' in mpn
  )
    return { issues };
  const variant: VariantValues = {
    onlyStockAndPrice: true,
    values: [],
    priceCents: null,
    compareAtPriceCents: compareAt.value,
    stockQuantity: stock.value,
    weightGrams: null,
    lengthMm: null,
    widthMm: null,
    heightMm: null,
    imageUrls: [],
    gtin: gtin.value,
    mpn: mpn.value,
  };
  return { issues, sold: { options: [], variants: [variant], stockQuantity: stock.value } };
}

export type ProductForm = z.output<typeof productFormSchema>;

/** The fields parseFormData lets repeat in this form. */
export const PRODUCT_FORM_REPEATABLE = ['uploads'] as const;

/** What the save action answers when it does not redirect. */
export type ProductFormReply =
  | { ok: true; toast: Toast; id: string }
  | {
      ok: false;
      toast: Toast;
      error: string;
      fieldErrors: Record<string, string>;
      values: Record<string, string>;
    };
