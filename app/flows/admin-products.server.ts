import type { Db } from '~/db/database.server';
import {
  PRODUCT_CSV_MESSAGES,
  PRODUCT_MESSAGES,
  type ProductImportResult,
} from '~/modules/catalog/index.admin';

import { deleteProductEverywhere } from './delete-catalog.server';
import { importProducts } from './import-products.server';

/** What the product list's forms post, once parsed. */
type ProductListForm = { intent: 'delete'; id: string } | { intent: 'import'; file: File };

/** What staff read after one of them, with the import's report row by row when it was one. */
type ProductListOutcome =
  | { ok: true; message: string; import?: ProductImportResult }
  | { ok: false; status: 400 | 404; message: string; import?: ProductImportResult };

/**
 * The product list's forms: 'Excluir' deletes the product and takes it out of the coupons that
 * name it; the CSV import writes every row or none, with the restock e-mails the products back
 * in stock owe.
 */
export async function runProductListAction(
  db: Db,
  form: ProductListForm,
): Promise<ProductListOutcome> {
  if (form.intent === 'delete') {
    return (await deleteProductEverywhere(db, form.id))
      ? { ok: true, message: PRODUCT_MESSAGES.deleted }
      : {
          ok: false,
          status: 404,
          message: PRODUCT_MESSAGES.deleteError('produto não encontrado.'),
        };
  }
  const result = await importProducts(db, new Uint8Array(await form.file.arrayBuffer()));
  return result.ok
    ? {
        ok: true,
        message: PRODUCT_CSV_MESSAGES.imported(result.created + result.updated),
        import: result,
      }
    : {
        ok: false,
        status: 400,
        message: PRODUCT_CSV_MESSAGES.importError(result.error),
        import: result,
      };
}
