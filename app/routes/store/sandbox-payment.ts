import { redirect } from 'react-router';
import { z } from 'zod';

import {
  confirmationPath,
  PAYMENT_MISSING,
  SANDBOX_MESSAGES,
} from '~/components/store/order-payment';
import { settleSandboxPayment } from '~/flows/order-confirmation-page.server';
import { methodNotAllowed, parseForm, refuseOtherMethods } from '~/lib/form.server';
import { refuseForm } from '~/lib/toast.server';
import { orderAccess } from '~/modules/orders/index.server';

import type { Route } from './+types/sandbox-payment';

/** Only the confirmation page's sandbox buttons post here. */
export function loader() {
  return methodNotAllowed('POST');
}

const sandboxSchema = z.object({
  intent: z.enum(['approve', 'reject', 'expire'], { error: 'Ação inválida.' }),
  orderId: z.string({ error: PAYMENT_MISSING }).max(64, { error: PAYMENT_MISSING }),
  chave: z.string().max(64).optional(),
  // A card's instalments, as a provider's page would ask; one when not sent.
  parcelas: z
    .string({ error: 'Parcelas inválidas.' })
    .regex(/^\d{1,2}$/, { error: 'Parcelas inválidas.' })
    .transform(Number)
    .optional(),
});

/** The sandbox tester's approve, reject and expire, then back to the order's payment page. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, sandboxSchema);
  if (!parsed.ok) return refuseForm(parsed.error);
  const { intent, orderId, chave, parcelas } = parsed.data;
  const settled = await settleSandboxPayment(context, {
    orderId,
    access: await orderAccess(request, orderId, chave),
    intent,
    installments: parcelas,
  });
  switch (settled.kind) {
    case 'missing':
      return refuseForm(PAYMENT_MISSING, {}, 404);
    case 'not-sandbox':
      return refuseForm(SANDBOX_MESSAGES.testModeOnly, {}, 403);
    case 'installments':
      return refuseForm(SANDBOX_MESSAGES.installments(settled.most), {}, 400);
    case 'settled':
      return redirect(confirmationPath(settled.orderId, settled.paymentId), 303);
  }
}
