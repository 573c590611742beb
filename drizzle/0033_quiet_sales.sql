-- A sale takes stock from a variant, and the variant's trigger adds it up on its product: both
-- updates announced the change (drizzle/0009, 0022), so every order dropped every instance's page
-- cache, its catalogue counts and its feeds, and on a sale day the cached pages were never warm.
-- The storefront shows stock only through what these bands tell apart: none left, 'Últimas N
-- unidades' up to 10, the card's badges below 10 and above 50, and the quantity picker's limit
-- (the stock, at most max_quantity_per_item). An update now announces itself only when a column
-- other than the stock and its time changed, or when the stock moved to another band.
CREATE FUNCTION vitrine_shown_stock(stock integer) RETURNS integer AS $$
  SELECT least(stock, greatest(
    51,
    coalesce((
      SELECT CASE WHEN s.values->>'max_quantity_per_item' ~ '^[0-9]{1,6}$'
        THEN (s.values->>'max_quantity_per_item')::integer END
      FROM store_settings s WHERE s.id = 1
    ), 0)
  ))
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
DROP TRIGGER product_variants_storefront_changed ON product_variants;
--> statement-breakpoint
CREATE TRIGGER product_variants_storefront_changed
AFTER INSERT OR DELETE OR TRUNCATE ON product_variants
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
--> statement-breakpoint
-- Row by row for updates: PostgreSQL folds a transaction's identical notifications into one.
CREATE TRIGGER product_variants_storefront_updated
AFTER UPDATE ON product_variants
FOR EACH ROW WHEN (
  (to_jsonb(OLD) - 'stock_quantity' - 'updated_at') IS DISTINCT FROM
    (to_jsonb(NEW) - 'stock_quantity' - 'updated_at')
  OR vitrine_shown_stock(OLD.stock_quantity) IS DISTINCT FROM vitrine_shown_stock(NEW.stock_quantity)
) EXECUTE FUNCTION vitrine_notify_storefront_changed();
--> statement-breakpoint
DROP TRIGGER products_storefront_changed ON products;
--> statement-breakpoint
CREATE TRIGGER products_storefront_changed
AFTER INSERT OR DELETE OR TRUNCATE ON products
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
--> statement-breakpoint
CREATE TRIGGER products_storefront_updated
AFTER UPDATE ON products
FOR EACH ROW WHEN (
  (to_jsonb(OLD) - 'stock_quantity' - 'updated_at') IS DISTINCT FROM
    (to_jsonb(NEW) - 'stock_quantity' - 'updated_at')
  OR vitrine_shown_stock(OLD.stock_quantity) IS DISTINCT FROM vitrine_shown_stock(NEW.stock_quantity)
) EXECUTE FUNCTION vitrine_notify_storefront_changed();
