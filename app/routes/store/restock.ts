import { redirect } from 'react-router';

import { askForRestockAlert } from '~/flows/restock-alerts.server';
import { isDocumentRequest, parseForm, refuseOtherMethods } from '~/lib/form.server';
import { refuseForm, successWithToast } from '~/lib/toast.server';
import {
  RESTOCK_MESSAGES,
  RESTOCK_NOTICE_PARAM,
  RESTOCK_NOTICES,
  variantPath,
} from '~/modules/catalog';
import {
  findRestockProduct,
  restockFormSchema,
  type RestockProduct,
} from '~/modules/catalog/index.server';
import { hitRateLimit, RATE_LIMITS } from '~/modules/rate-limits/index.server';

import type { Route } from './+types/restock';

export function loader() {
  return refuseForm('Peça o aviso pelo formulário da página do produto.', {}, 405, {
    Allow: 'POST',
  });
}

/**
 * Back to the product's page showing the variant, at the form, with what to say there
 * (`?aviso=…`).
 */
function backToProduct(product: RestockProduct, notice?: string) {
  const path = variantPath(product);
  const query = notice ? new URLSearchParams({ [RESTOCK_NOTICE_PARAM]: notice }).toString() : '';
  const separator = path.includes('?') ? '&' : '?';
  return redirect(`${path}${query ? separator + query : ''}#avise-me`, 303);
}

/**
 * 'Avise-me quando chegar' on a sold-out product's page: the address gets an e-mail asking it to
 * confirm (see askForRestockAlert). The form's fetcher gets data (400 for a bad e-mail, 404 for
 * an unknown product or variant, 400 for a product of several
 * variants named without one, 409 for a variant in stock); a browser without JavaScript goes back to the
 * product's page, which says how it went. The answer is the same whether or not the address had
 * asked or confirmed before, so it tells nobody about someone else's address.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  // Anyone may leave an address here, and each one is mailed later: a client leaving dozens a
  // minute is filling the outbox, not waiting for a product.
  const limited = await hitRateLimit(context.db, RATE_LIMITS.restock, {
    address: context.clientIp,
  });
  if (!limited.allowed) {
    return refuseForm(RESTOCK_MESSAGES.busy, {}, 429, {
      'Retry-After': String(limited.retryAfterSeconds),
    });
  }
  const page = isDocumentRequest(request);
  const parsed = await parseForm(request, restockFormSchema);
  if (!parsed.ok) {
    const { productId, variantId } = parsed.values;
    const found =
      page && (productId || variantId) && !parsed.fieldErrors.productId
        ? await findRestockProduct(context.db, {
            productId: productId || undefined,
            variantId: variantId || undefined,
          })
        : null;
    if (found && 'product' in found) return backToProduct(found.product, RESTOCK_NOTICES.badEmail);
    return refuseForm(parsed.error, { fieldErrors: parsed.fieldErrors });
  }
  const result = await askForRestockAlert(context.db, parsed.data);
  if (!result.ok && result.reason === 'missing') {
    return refuseForm(RESTOCK_MESSAGES.product, {}, 404);
  }
  if (!result.ok && result.reason === 'choose') {
    if (page) return backToProduct(result.product);
    return refuseForm(result.message, {}, 400);
  }
  if (!result.ok) {
    if (page) return backToProduct(result.product);
    return refuseForm(RESTOCK_MESSAGES.inStock, {}, 409);
  }
  if (page) return backToProduct(result.product, RESTOCK_NOTICES.done);
  return successWithToast(request, RESTOCK_MESSAGES.doneFor(parsed.data.email));
}
