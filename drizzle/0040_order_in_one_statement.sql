-- An order is written by one statement, without a transaction around it (ADR 056): the placer's
-- locks, the limit of unpaid orders, a coupon's rules per shopper, the stock, the coupon's use and
-- the order's rows. A refusal anywhere in it must undo all of it, so the statement raises one.
--
-- vitrine_refuse: raises a refusal the app reads by its SQLSTATE (VR001), the reason as the
-- message and what the app tells the shopper as the detail. Volatile, so the planner never runs it
-- ahead of the CASE that guards it.
CREATE FUNCTION vitrine_refuse(reason text, detail text DEFAULT '') RETURNS boolean AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'VR001', MESSAGE = reason, DETAIL = coalesce(detail, '');
END
$$ LANGUAGE plpgsql VOLATILE;
--> statement-breakpoint
-- 0039's function with what a coupon's rules per shopper read, after the same locks. It calls
-- 0039's (which servers of the version before still call during a deploy) for the locks and the
-- counts, then reads in a statement of its own, whose snapshot is taken after the locks:
-- has_ordered: whether the shopper (CPF or e-mail), the phone or the door (the CEP and the house
-- number without spaces, in capitals) has an order not cancelled; only when check_first_purchase.
-- coupon_uses: the shopper's orders not cancelled that used the coupon count_uses_of (by CPF or
-- e-mail); 0 when it is null. placer_email comes in lower case.
-- ROWS 1, as it always returns one row: with the default guess of 1000, PostgreSQL judged the
-- order's statement cheaper planned for each call's values, and planned it again for every order.
CREATE FUNCTION vitrine_lock_open_orders(
  lock_names text[],
  placer_token text,
  placer_cpf text,
  placer_address_hash text,
  placer_email text,
  placer_phone text,
  placer_zip text,
  placer_door text,
  check_first_purchase boolean,
  count_uses_of uuid
) RETURNS TABLE (
  browser integer,
  cpf integer,
  address integer,
  browser_order_id uuid,
  has_ordered boolean,
  coupon_uses integer
) AS $$
DECLARE
  counted record;
BEGIN
  SELECT * INTO counted
    FROM vitrine_lock_open_orders(lock_names, placer_token, placer_cpf, placer_address_hash);
  RETURN QUERY
    SELECT
      counted.browser,
      counted.cpf,
      counted.address,
      counted.browser_order_id,
      check_first_purchase AND EXISTS (
        SELECT 1 FROM orders p
        WHERE p.status <> 'cancelled'
          AND (p.customer_cpf = placer_cpf
            OR lower(p.customer_email) = placer_email
            OR p.customer_phone = placer_phone
            OR (placer_door IS NOT NULL
              AND p.shipping_zip = placer_zip
              AND upper(regexp_replace(p.shipping_number, '\s+', '', 'g')) = placer_door))
      ),
      CASE WHEN count_uses_of IS NULL THEN 0 ELSE (
        SELECT count(DISTINCT u.id)::integer
        FROM orders u JOIN order_adjustments a ON a.order_id = u.id
        WHERE a.coupon_id = count_uses_of
          AND u.status <> 'cancelled'
          AND (u.customer_cpf = placer_cpf OR lower(u.customer_email) = placer_email)
      ) END;
END
$$ LANGUAGE plpgsql VOLATILE ROWS 1;
--> statement-breakpoint
-- A product's price as committed when it is called, not as the calling statement's snapshot saw
-- it: an order's stock claims run after the order's locks were waited for, and a price changed
-- meanwhile must fail them (a volatile function's query takes a snapshot of its own).
CREATE FUNCTION vitrine_product_price(product uuid) RETURNS integer AS $$
BEGIN
  RETURN (SELECT price_cents FROM products WHERE id = product);
END
$$ LANGUAGE plpgsql VOLATILE;
