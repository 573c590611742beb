import { redirect } from 'react-router';
import { z } from 'zod';

import {
  confirmationPath,
  PAYMENT_MISSING,
  SANDBOX_MESSAGES,
} from '~/components/store/order-payment';
import { refreshPayment } from '~/flows/order-payment.server';
import { methodNotAllowed, parseForm, refuseOtherMethods } from '~/lib/form.server';
import { refuseForm } from '~/lib/toast.server';
import { findOrderFor, orderAccess } from '~/modules/orders/index.server';
import { setSandboxPaymentStatus } from '~/modules/payments/index.server';
import { installmentOffer } from '~/modules/pricing';

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

const SANDBOX_STATUS = { approve: 'approved', reject: 'rejected', expire: 'expired' } as const;

/** The sandbox tester's approve, reject and expire, then back to the order's payment page. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, sandboxSchema);
  if (!parsed.ok) return refuseForm(parsed.error);
  const { intent, orderId, chave, parcelas } = parsed.data;
  const order = await findOrderFor(context.db, orderId, await orderAccess(request, orderId, chave));
  if (!order) return refuseForm(PAYMENT_MISSING, {}, 404);
  const payments = await context.payments();
  // Only while the sandbox is the provider: a demo made live takes no pretend payment.
  const sandbox = payments?.testMode && order.payment.provider === payments.name;
  if (!sandbox || !order.payment.id) return refuseForm(SANDBOX_MESSAGES.testModeOnly, {}, 403);
  let installments: number | null = null;
  if (intent === 'approve' && order.paymentMethod === 'credit_card') {
    // What the store offers on this total, as the checkout showed it ('em até 6x').
    const most = installmentOffer(order.totalCents, await context.settings.get())?.count ?? 1;
    installments = parcelas ?? 1;
    if (installments < 1 || installments > most) {
      return refuseForm(SANDBOX_MESSAGES.installments(most), {}, 400);
    }
  }
  await setSandboxPaymentStatus(
    context.db,
    order.payment.id,
    SANDBOX_STATUS[intent],
    new Date(),
    installments,
  );
  await refreshPayment(context.db, payments, order, context.orderEvents);
  return redirect(confirmationPath(order.id, order.payment.id), 303);
}
