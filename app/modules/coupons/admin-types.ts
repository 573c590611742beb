import type { CouponState } from './coupon-form';
import type { CouponKind } from './schema';

/** One coupon as the admin's list shows it: texts written on the server in the store's zone. */
export interface CouponListRow {
  id: string;
  code: string;
  kind: CouponKind;
  /** '10%', 'R$ 20,00', 'Frete grátis'. */
  valueText: string;
  /** 'R$ 150,00', or null without a minimum. */
  minimumText: string | null;
  /** 'De 01/12/2026 às 10:00 até 31/12/2026 às 23:59', 'Sem prazo'… */
  validityText: string;
  usedCount: number;
  usageLimit: number | null;
  orders: number;
  revenueCents: number;
  state: CouponState;
  active: boolean;
  /** 'Excluir' is offered: no use counted (an order's adjustment may still refuse it). */
  canDelete: boolean;
  /** The edit form's values, as its fields show them. */
  form: CouponFormValues;
}

/** What the coupon form's fields hold when it opens. */
export interface CouponFormValues {
  code: string;
  kind: CouponKind;
  value: string;
  minSubtotal: string;
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  usageLimitPerCustomer: string;
  firstPurchaseOnly: boolean;
  active: boolean;
  /** The chosen products with their names (a product deleted since is left out). */
  products: { id: string; name: string }[];
  categoryIds: string[];
}
