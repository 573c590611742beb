-- Coupon terms are cached by each app instance (a checkout reads them twice): announce every
-- change to them on the storefront channel, whoever makes it. Not a use taken or given back
-- (`used_count`), which every order with a coupon makes: the cache keeps no coupon that has a
-- usage limit, and announcing each order would flush every instance's page cache.
-- A column added to coupons later belongs in this list.
CREATE TRIGGER coupons_storefront_changed
AFTER INSERT OR DELETE OR TRUNCATE ON coupons
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
--> statement-breakpoint
CREATE TRIGGER coupons_terms_changed
AFTER UPDATE OF code, kind, value, min_subtotal_cents, starts_at, ends_at, usage_limit,
  usage_limit_per_customer, first_purchase_only, product_ids, category_ids, active ON coupons
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
