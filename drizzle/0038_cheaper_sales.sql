-- A sale's stock update cost more in its triggers than in itself (issue 37). On the variant, and
-- again on its product, the WHEN clause of 0033 turned the old and the new row into JSON (the
-- product's with its search columns) to tell whether anything but the stock had changed, and
-- read the settings once per side for the stock's bands. And the product's sum moved its
-- updated_at, which is indexed: each sale wrote a new entry into every index of products, its
-- two GIN indexes of search text among them, where an update that changes no indexed column
-- stays on its page (HOT) and writes none. (And see below: the generated columns.)
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
--> statement-breakpoint
-- And the product's sum still rewrote its stored generated columns (the search text, its
-- Portuguese words and stems) on every sale. PostgreSQL works out again only the generated
-- columns whose inputs an UPDATE writes, unless the table has a BEFORE ROW UPDATE trigger, which
-- could write any column: products had three. They now run after the row is written, and change
-- it in a second update only when there is something to change (an admin's price or slug,
-- never a sale). Their rules stay the same; BEFORE INSERT is kept, as an insert computes every
-- column anyway.
DROP TRIGGER products_stock_to_variant ON products;
--> statement-breakpoint
CREATE TRIGGER products_stock_to_variant AFTER UPDATE OF stock_quantity ON products
FOR EACH ROW EXECUTE FUNCTION vitrine_product_stock_to_variant();
--> statement-breakpoint
DROP TRIGGER products_from_price ON products;
--> statement-breakpoint
CREATE TRIGGER products_from_price BEFORE INSERT ON products
FOR EACH ROW EXECUTE FUNCTION vitrine_product_from_price();
--> statement-breakpoint
CREATE FUNCTION vitrine_product_from_price_updated() RETURNS trigger AS $$
DECLARE
  worked_out integer;
BEGIN
  worked_out := coalesce(
    (SELECT min(coalesce(v.price_cents, NEW.price_cents)) FROM product_variants v
      WHERE v.product_id = NEW.id),
    NEW.price_cents);
  -- The second update comes back here with nothing left to change.
  IF worked_out IS DISTINCT FROM NEW.from_price_cents THEN
    UPDATE products SET from_price_cents = worked_out WHERE id = NEW.id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_from_price_updated AFTER UPDATE OF price_cents, from_price_cents
ON products FOR EACH ROW EXECUTE FUNCTION vitrine_product_from_price_updated();
--> statement-breakpoint
-- The slug a row gets (0008's rule): the one given, normalised; if none, its name's, with a
-- number after it when another row of the table has it already.
CREATE FUNCTION vitrine_unique_slug(tbl text, row_id uuid, given text, name text, fallback text)
RETURNS text AS $$
DECLARE
  base text;
  candidate text;
  suffix integer := 1;
  taken boolean;
BEGIN
  candidate := coalesce(vitrine_slug(given), '');
  IF candidate <> '' THEN
    RETURN candidate;
  END IF;
  base := coalesce(nullif(vitrine_slug(name), ''), fallback);
  candidate := base;
  LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE slug = $1 AND id <> $2)', tbl)
      INTO taken USING candidate, row_id;
    EXIT WHEN NOT taken;
    suffix := suffix + 1;
    candidate := base || '-' || suffix;
  END LOOP;
  RETURN candidate;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION vitrine_set_slug() RETURNS trigger AS $$
BEGIN
  NEW.slug := vitrine_unique_slug(TG_TABLE_NAME, NEW.id, NEW.slug, NEW.name, TG_ARGV[0]);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE FUNCTION vitrine_slug_updated() RETURNS trigger AS $$
DECLARE
  slug text;
BEGIN
  -- Its own second update (nothing else writes a slug from a trigger) is final, as the BEFORE
  -- trigger's result was: a taken slug cut at 80 characters gets '-2' after it, not cut again.
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  slug := vitrine_unique_slug(TG_TABLE_NAME, NEW.id, NEW.slug, NEW.name, TG_ARGV[0]);
  IF slug IS DISTINCT FROM NEW.slug THEN
    EXECUTE format('UPDATE %I SET slug = $1 WHERE id = $2', TG_TABLE_NAME) USING slug, NEW.id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER products_slug ON products;
--> statement-breakpoint
CREATE TRIGGER products_slug BEFORE INSERT ON products
FOR EACH ROW EXECUTE FUNCTION vitrine_set_slug('produto');
--> statement-breakpoint
CREATE TRIGGER products_slug_updated AFTER UPDATE OF slug ON products
FOR EACH ROW EXECUTE FUNCTION vitrine_slug_updated('produto');
