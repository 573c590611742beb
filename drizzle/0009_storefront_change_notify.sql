-- Tell every listening app instance that what the storefront shows changed, whoever changed it
-- (the admin, a sale taking stock, another instance, someone with psql), so their page caches
-- drop it at once. The payload is the table's name; one notification per statement.
CREATE FUNCTION vitrine_notify_storefront_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('storefront_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_storefront_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
--> statement-breakpoint
CREATE TRIGGER categories_storefront_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
--> statement-breakpoint
CREATE TRIGGER reviews_storefront_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reviews
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
--> statement-breakpoint
CREATE TRIGGER store_settings_storefront_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_settings
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
--> statement-breakpoint
-- The settings store now hears the same announcements (one connection, one order of events).
DROP TRIGGER store_settings_changed ON store_settings;
--> statement-breakpoint
DROP FUNCTION notify_store_settings_changed();
