-- A sale's stock update cost more in its triggers than in itself (issue 37). On the variant, and
-- again on its product, the WHEN clause of 0033 turned the old and the new row into JSON (the
-- product's with its search columns) to tell whether anything but the stock had changed, and
-- read the settings once per side for the stock's bands. And the product's sum moved its
-- updated_at, which is indexed: each sale wrote a new entry into every index of products, its
-- two GIN indexes of search text among them, where an update that changes no indexed column
-- stays on its page (HOT) and writes none.
--
-- Now one function compares the rows with their stock and time set alike, and reads the
-- settings only when the stock moved. A product's updated_at says when the product itself was
-- last changed (the sitemap's lastmod): a sale, a restock or a variant's stock no longer moves
-- it; the variant's own updated_at still does.
CREATE FUNCTION vitrine_notify_shown_change() RETURNS trigger AS $$
DECLARE
  before record;
  cap integer;
BEGIN
  before := OLD;
  before.stock_quantity := NEW.stock_quantity;
  before.updated_at := NEW.updated_at;
  IF before IS DISTINCT FROM NEW THEN
    PERFORM pg_notify('storefront_changed', TG_TABLE_NAME);
  ELSIF OLD.stock_quantity <> NEW.stock_quantity THEN
    -- The bands 0033 describes: none left, up to 10, below and above 50, and the quantity
    -- picker's limit (the stock, at most max_quantity_per_item).
    cap := greatest(51, coalesce((
      SELECT CASE WHEN s.values->>'max_quantity_per_item' ~ '^[0-9]{1,6}$'
        THEN (s.values->>'max_quantity_per_item')::integer END
      FROM store_settings s WHERE s.id = 1
    ), 0));
    IF least(OLD.stock_quantity, cap) <> least(NEW.stock_quantity, cap) THEN
      PERFORM pg_notify('storefront_changed', TG_TABLE_NAME);
    END IF;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER product_variants_storefront_updated ON product_variants;
--> statement-breakpoint
CREATE TRIGGER product_variants_storefront_updated AFTER UPDATE ON product_variants
FOR EACH ROW EXECUTE FUNCTION vitrine_notify_shown_change();
--> statement-breakpoint
DROP TRIGGER products_storefront_updated ON products;
--> statement-breakpoint
CREATE TRIGGER products_storefront_updated AFTER UPDATE ON products
FOR EACH ROW EXECUTE FUNCTION vitrine_notify_shown_change();
--> statement-breakpoint
DROP FUNCTION vitrine_shown_stock(integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION vitrine_sum_variant_stock() RETURNS trigger AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.product_id = OLD.product_id THEN
    UPDATE products
    SET stock_quantity = stock_quantity + NEW.stock_quantity - OLD.stock_quantity
    WHERE id = NEW.product_id AND NEW.stock_quantity <> OLD.stock_quantity;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE products SET stock_quantity = stock_quantity - OLD.stock_quantity
    WHERE id = OLD.product_id AND OLD.stock_quantity <> 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE products SET stock_quantity = stock_quantity + NEW.stock_quantity
    WHERE id = NEW.product_id AND NEW.stock_quantity <> 0;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
