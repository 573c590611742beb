import type { Db } from '~/db/database.server';
import type { ProductImportResult } from '~/modules/catalog/index.admin';
import { importProductsCsv } from '~/modules/catalog/index.admin.server';
import { alertRestocked } from '~/modules/catalog/index.server';

/**
 * The admin's CSV import: the products are written and, in the same transaction, the restock
 * e-mails queued for those back in stock, so a refused file owes nobody an e-mail.
 */
export function importProducts(db: Db, bytes: Uint8Array): Promise<ProductImportResult> {
  return importProductsCsv(db, bytes, { onStockWritten: alertRestocked });
}
