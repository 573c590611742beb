import { useFetcher } from 'react-router';

import type { CartReply } from '~/modules/cart';
import type { HeldCoupon } from '~/modules/coupons';

export type CouponState = HeldCoupon;

/**
 * 'Cupom de desconto' with 'Aplicar': on the cart, its own form posting to /cart; on the
 * checkout (`form` given), fields of the checkout's form placed in the summary, so typed
 * addresses are kept when a coupon is applied without JavaScript. They come after the
 * checkout's own button in the page, which stays the one Enter presses.
 */
export function CouponBox({
  coupon,
  miss,
  error,
  typed,
  form,
  inputId = 'coupon-code',
}: {
  coupon: CouponState | null;
  /** Why the held coupon does not change this price (minimum, products, PIX better). */
  miss: string | null;
  /** The server's refusal of the coupon (a page posted without JavaScript), said at its field. */
  error?: string;
  /** The refused code as sent, shown again to be corrected rather than typed anew. */
  typed?: string;
  /** The id of the checkout's form; unset on the cart. */
  form?: string;
  /** The input's id: the checkout's error summary links to its fields by id. */
  inputId?: string;
}) {
  const fetcher = useFetcher<CartReply>({ key: 'cart-coupon' });
  const refused = fetcher.data && !fetcher.data.ok ? fetcher.data.toast.message : undefined;
  const problem = error ?? refused ?? coupon?.refusal ?? null;
  const shown = typed ?? (coupon?.terms ? coupon.code : '');
  const fields = (
    <>
      <label htmlFor={inputId} className="font-semibold">
        Cupom de desconto
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          name="couponCode"
          form={form}
          defaultValue={shown}
          key={shown}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={30}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'coupon-problem' : undefined}
          className="field min-w-0 flex-1 uppercase"
        />
        <button type="submit" name="intent" value="coupon" form={form} className="btn btn-outline">
          Aplicar
        </button>
      </div>
      {problem ? (
        <p id="coupon-problem" role="alert" className="text-sm font-semibold text-danger">
          {problem}
        </p>
      ) : null}
      {coupon?.terms ? (
        <p
          role="status"
          className="flex flex-wrap items-center gap-x-3 text-sm"
          data-testid="coupon-applied"
        >
          <span>
            Cupom <strong>{coupon.code}</strong> aplicado.
          </span>
          <button
            type="submit"
            name="intent"
            value="coupon-remove"
            form={form}
            className="btn text-sm text-link underline"
          >
            Remover cupom
          </button>
        </p>
      ) : null}
      {coupon?.terms && miss ? (
        <p className="text-sm" data-testid="coupon-miss">
          {miss}
        </p>
      ) : null}
    </>
  );
  const className = 'flex flex-col gap-2 border-t border-card-border pt-3';
  return form ? (
    <div className={className} data-testid="coupon-box">
      {fields}
    </div>
  ) : (
    <fetcher.Form method="post" action="/cart" className={className} data-testid="coupon-box">
      {fields}
    </fetcher.Form>
  );
}
