import { countOf } from '~/lib/plural';

/**
 * The product spreadsheet, as Excel in Brazil opens and saves it: UTF-8 with a BOM, `;` between
 * columns (Brazilian Excel uses the comma for decimals), prices as "1234,56", image URLs joined
 * by " | ". Import also takes `,` as the separator (Google Sheets) and Windows-1252 text (Excel's
 * plain "CSV" in pt-BR).
 *
 * One row per variant, as in the spreadsheets of other store platforms: a product's rows share
 * its `slug` (and `id`), its own columns are on its first row, and each row has the variant's
 * option values, SKU, price (empty: the product's), 'de' price, stock, weight, size and pictures.
 * The first seven columns are the spreadsheet from before variants, which still imports (one
 * product per row, its stock the stock of its one variant).
 */
export const PRODUCT_CSV_COLUMNS = [
  { key: 'id', header: 'id', label: 'id' },
  { key: 'name', header: 'nome', label: 'nome' },
  { key: 'description', header: 'descricao', label: 'descrição' },
  { key: 'price', header: 'preco', label: 'preço' },
  { key: 'stockQuantity', header: 'estoque', label: 'estoque' },
  { key: 'category', header: 'categoria', label: 'categoria' },
  { key: 'imageUrls', header: 'imagens', label: 'imagens' },
  { key: 'slug', header: 'slug', label: 'slug' },
  { key: 'option1', header: 'opcao1_nome', label: 'opcao1_nome' },
  { key: 'value1', header: 'opcao1_valor', label: 'opcao1_valor' },
  { key: 'color1', header: 'opcao1_cor', label: 'opcao1_cor' },
  { key: 'option2', header: 'opcao2_nome', label: 'opcao2_nome' },
  { key: 'value2', header: 'opcao2_valor', label: 'opcao2_valor' },
  { key: 'color2', header: 'opcao2_cor', label: 'opcao2_cor' },
  { key: 'option3', header: 'opcao3_nome', label: 'opcao3_nome' },
  { key: 'value3', header: 'opcao3_valor', label: 'opcao3_valor' },
  { key: 'color3', header: 'opcao3_cor', label: 'opcao3_cor' },
  { key: 'sku', header: 'sku', label: 'sku' },
  { key: 'variantPrice', header: 'preco_variante', label: 'preco_variante' },
  { key: 'compareAtPrice', header: 'preco_de', label: 'preco_de' },
  { key: 'weight', header: 'peso_g', label: 'peso_g' },
  { key: 'length', header: 'comprimento_mm', label: 'comprimento_mm' },
  { key: 'width', header: 'largura_mm', label: 'largura_mm' },
  { key: 'height', header: 'altura_mm', label: 'altura_mm' },
  { key: 'variantImages', header: 'imagens_variante', label: 'imagens_variante' },
  // For Google's and Meta's feeds (issue 39), in their own names; a spreadsheet without them
  // leaves what the products have.
  { key: 'brand', header: 'brand', label: 'brand' },
  {
    key: 'googleProductCategory',
    header: 'google_product_category',
    label: 'google_product_category',
  },
  { key: 'condition', header: 'condition', label: 'condition' },
  { key: 'gtin', header: 'gtin', label: 'gtin' },
  { key: 'mpn', header: 'mpn', label: 'mpn' },
] as const;

/** The columns a spreadsheet must have (those of the one from before variants, but its id). */
export const PRODUCT_CSV_REQUIRED = [
  'name',
  'description',
  'price',
  'stockQuantity',
  'category',
  'imageUrls',
] as const;

export type ProductCsvKey = (typeof PRODUCT_CSV_COLUMNS)[number]['key'];

export const PRODUCT_CSV_LIMITS = {
  bytes: 5 * 1024 * 1024,
  rows: 10_000,
  /** Problems listed in the report; the rest are counted. */
  reported: 100,
} as const;

export const IMAGE_SEPARATOR = ' | ';

export const PRODUCT_CSV_MESSAGES = {
  noFile: 'Escolha um arquivo CSV.',
  tooBig: 'O arquivo passa de 5 MB. Divida a planilha em partes menores.',
  tooManyRows: 'O arquivo passa de 10.000 produtos. Divida a planilha em partes menores.',
  empty: 'O arquivo não tem nenhum produto.',
  unreadable: (line: number | undefined) =>
    `Não foi possível ler o CSV${line ? ` (perto da linha ${line})` : ''}. Confira as aspas e o separador (;).`,
  missingColumns: (columns: string[]) =>
    `Faltam colunas no cabeçalho: ${columns.join(', ')}. Use a planilha exportada como modelo.`,
  idInvalid: 'id inválido. Deixe em branco para criar um produto novo.',
  idRepeated: (row: number) => `Este id já aparece na linha ${row}.`,
  optionValue: (option: string) => `Informe o valor de "${option}".`,
  noOption: 'Este produto não tem esta opção: deixe em branco.',
  combinationRepeated: (row: number) => `Esta combinação de valores já aparece na linha ${row}.`,
  skuRepeated: (row: number) => `Este SKU já aparece na linha ${row}.`,
  slugRepeated: (row: number) => `Este slug já aparece na linha ${row}.`,
  slugTaken: 'Este slug já é de outro produto: deixe em branco ou escolha outro.',
  productRepeated: (row: number) => `Este produto já aparece na linha ${row}, pelo id.`,
  skuTaken: 'Este SKU já é usado por um produto que não está na planilha.',
  hasVariants:
    'Este produto tem variantes: exporte a planilha de novo e edite o estoque de cada uma na sua linha.',
  category: 'Informe a categoria.',
  imported: (count: number) => `${countOf(count, 'produto importado', 'produtos importados')}.`,
  refused: 'Nenhum produto foi importado: corrija as linhas abaixo e envie o arquivo de novo.',
  importError: (message: string) => `Erro ao importar produtos: ${message}`,
} as const;

export interface ProductCsvProblem {
  /** The spreadsheet row (the header is row 1). */
  row: number;
  /** The column, as its header reads, when the problem is in one cell. */
  column?: string;
  message: string;
}

export type ProductImportResult =
  | { ok: true; created: number; updated: number; categoriesCreated: string[] }
  | { ok: false; error: string; problems: ProductCsvProblem[]; moreProblems: number };
