-- Tell every listening app instance that the settings changed, whoever changed them
-- (the admin, another instance, or someone with psql), so their caches drop at once.
CREATE FUNCTION notify_store_settings_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('store_settings_changed', '');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER store_settings_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_settings
FOR EACH STATEMENT EXECUTE FUNCTION notify_store_settings_changed();
