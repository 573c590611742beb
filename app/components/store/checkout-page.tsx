import { useState } from 'react';
import { Link, useFetcher } from 'react-router';

import type { PricedCart } from '~/modules/cart';
import { couponMissText, type HeldCoupon } from '~/modules/coupons';
import type { ShippingEstimate } from '~/modules/orders';
import type { PaymentMethod } from '~/modules/payments';
import { installmentOffer, priceOrder } from '~/modules/pricing';
import { shippingLineLabel } from '~/modules/shipping';

import {
  CHECKOUT_FORM_ID,
  CheckoutForm,
  type CheckoutShipping,
  type MethodOffer,
} from './checkout-form';
import { CouponBox } from './coupon-box';
import { NotSellingNotice } from './not-selling-notice';
import { OrderSummary } from './order-summary';
import { CheckoutAccountBox, type CheckoutAccount } from './checkout-account';
import { useSettings } from './store-data';
import { TestModeNotice } from './test-mode-notice';

export type ShippingAnswer = Extract<ShippingEstimate, { ok: true }>;

/** The checkout as the server answered it: the page's data, with a refusal or an applied coupon. */
export interface CheckoutView {
  cart: Omit<PricedCart, 'corrected' | 'changed'>;
  coupon: HeldCoupon | null;
  /** Whether carriers price shipping: the form then asks the shopper to choose. */
  carriers: boolean;
  /** The options for the CEP the page starts with (or the refused form's). */
  shipping: ShippingAnswer | null;
  idempotencyKey: string;
  selling: boolean;
  methods: readonly PaymentMethod[];
  testMode: boolean;
  /** The form as typed (a refusal's or an applied coupon's answer), else the saved CEP. */
  values: Record<string, string>;
  fieldErrors: Partial<Record<string, string>>;
  /** The refusal's message, when not at the coupon's field. */
  error: string | undefined;
  /** This browser's unpaid order to pay before placing another. */
  payNow: string | undefined;
  /** The signed-in shopper and their saved addresses; null for a guest. */
  account: CheckoutAccount | null;
  /** The sign-in page, back to the checkout after (from the loader: no account code ships here). */
  signIn: string;
}

export function CheckoutPage({ view }: { view: CheckoutView }) {
  const settings = useSettings();
  const { cart, coupon, values } = view;
  const couponError = view.fieldErrors.couponCode;
  const shipping = useCheckoutShipping(view.carriers, view.shipping, values.shippingOption);
  const carriers =
    shipping?.estimate?.shipping.kind === 'carrier' ? shipping.estimate.shipping : null;
  const chosenOption = carriers?.options.find((option) => option.id === shipping?.chosenId);
  const shippingLabel = shippingLineLabel({
    carrier: chosenOption?.carrier ?? null,
    service: chosenOption?.service ?? null,
    approximate:
      shipping?.estimate?.shipping.kind === 'rule' && shipping.estimate.shipping.approximate,
  });
  const choices = {
    coupon: coupon?.terms ?? null,
    shipping: carriers ? { offers: carriers.options, chosenId: shipping?.chosenId ?? null } : null,
  };
  const methods = methodOffers(view.methods, cart.lines, choices, settings);
  const [chosen, setChosen] = useState<PaymentMethod | null>(null);
  const sentMethod = methods.find((offer) => offer.method === values.paymentMethod)?.method;
  const method = chosen ?? sentMethod ?? methods[0]?.method ?? 'pix';
  // The summary as the chosen way to pay and ship prices it: only PIX takes the PIX discount.
  const shown = priceOrder(cart.lines, settings, {
    ...choices,
    paymentMethod: method === 'pix' ? 'pix' : null,
  });
  const miss =
    coupon?.terms && shown.couponMiss ? couponMissText(coupon.code, shown.couponMiss) : null;
  const summary = (
    <OrderSummary
      title="Resumo do pedido"
      lines={cart.lines.map((line) => ({
        productId: line.productId,
        variantId: line.variantId,
        name: line.name,
        options: line.options,
        imageUrl: line.imageUrl,
        quantity: line.quantity,
        totalCents: line.lineTotalCents,
      }))}
      subtotalCents={shown.subtotalCents}
      shippingCents={shown.shippingCents}
      shippingLabel={shippingLabel}
      adjustments={shown.adjustments}
      totalCents={shown.totalCents}
    >
      {view.selling ? (
        <CouponBox
          coupon={coupon}
          miss={miss}
          error={couponError}
          typed={couponError ? values.couponCode : undefined}
          form={CHECKOUT_FORM_ID}
          inputId="checkout-couponCode"
        />
      ) : null}
      <Link to="/cart" className="btn btn-outline w-full">
        Voltar ao carrinho
      </Link>
      <Link to="/products" className="text-center text-sm text-link underline">
        {settings.continue_shopping_text}
      </Link>
    </OrderSummary>
  );
  return (
    <div className="section-spacing mx-auto max-w-store px-4">
      <h1 className="mb-6 text-2xl sm:text-3xl">Finalizar compra</h1>
      {view.testMode ? <TestModeNotice /> : null}
      {view.selling ? <CheckoutAccountBox account={view.account} signInHref={view.signIn} /> : null}
      {cart.notices.length > 0 ? (
        <ul
          role="status"
          className="mb-6 flex flex-col gap-1 rounded-card border-l-4 border-accent bg-card p-4"
        >
          {cart.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      ) : null}
      {view.selling ? (
        <CheckoutForm
          idempotencyKey={view.idempotencyKey}
          values={values}
          errors={view.fieldErrors}
          error={couponError ? undefined : view.error}
          payNow={view.payNow}
          submitLabel="Finalizar pedido"
          totalCents={shown.totalCents}
          methods={methods}
          method={method}
          onMethod={setChosen}
          shipping={shipping}
          testMode={view.testMode}
          orderSummary={summary}
        />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[1fr_24rem]">
          <NotSellingNotice />
          {summary}
        </div>
      )}
    </div>
  );
}

/** Each way to pay with the order's total paid that way, from the pricing pipeline itself. */
function methodOffers(
  methods: readonly PaymentMethod[],
  lines: Parameters<typeof priceOrder>[0],
  choices: Omit<Parameters<typeof priceOrder>[2], 'paymentMethod'>,
  settings: Parameters<typeof priceOrder>[1] & Parameters<typeof installmentOffer>[1],
): MethodOffer[] {
  return methods.map((method) => {
    const { totalCents } = priceOrder(lines, settings, {
      ...choices,
      paymentMethod: method === 'pix' ? 'pix' : null,
    });
    const installments =
      method === 'credit_card' ? (installmentOffer(totalCents, settings)?.count ?? null) : null;
    return { method, totalCents, installments };
  });
}

/**
 * The checkout's shipping: the options for the CEP the page started with (or the refused form's),
 * then for each CEP typed (from /frete); the cheapest chosen until the shopper picks one.
 */
function useCheckoutShipping(
  carriers: boolean,
  initial: ShippingAnswer | null,
  sent: string | undefined,
): CheckoutShipping | null {
  const fetcher = useFetcher<ShippingEstimate>();
  const [picked, setPicked] = useState<string | null>(null);
  const estimate = fetcher.data ? (fetcher.data.ok ? fetcher.data : null) : initial;
  const options = estimate?.shipping.kind === 'carrier' ? estimate.shipping.options : [];
  const wanted = picked ?? sent?.split(':')[0];
  const chosenId = (options.find((option) => option.id === wanted) ?? options[0])?.id ?? null;
  if (!carriers) return null;
  return {
    estimate,
    loading: fetcher.state === 'loading',
    chosenId,
    onChoose: setPicked,
    onCep: (digits) => {
      if (digits !== estimate?.cep.replace('-', '')) void fetcher.load(`/frete?cep=${digits}`);
    },
  };
}
