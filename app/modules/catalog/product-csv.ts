import { countOf } from '~/lib/plural';

/**
 * The product spreadsheet, as Excel in Brazil opens and saves it: UTF-8 with a BOM, `;` between
 * columns (Brazilian Excel uses the comma for decimals), prices as "1234,56", image URLs joined
 * by " | ". Import also takes `,` as the separator (Google Sheets) and Windows-1252 text (Excel's
 * plain "CSV" in pt-BR).
 */
export const PRODUCT_CSV_COLUMNS = [
  { key: 'id', header: 'id', label: 'id' },
  { key: 'name', header: 'nome', label: 'nome' },
  { key: 'description', header: 'descricao', label: 'descrição' },
  { key: 'price', header: 'preco', label: 'preço' },
  { key: 'stockQuantity', header: 'estoque', label: 'estoque' },
  { key: 'category', header: 'categoria', label: 'categoria' },
  { key: 'imageUrls', header: 'imagens', label: 'imagens' },
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
