CREATE TABLE "store_connections" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text,
	"sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_connections_one_form_check" CHECK (case when name in ('mercadopago_access_token', 'mercadopago_webhook_secret', 'gateway_secret_key', 'smtp_url', 'melhor_envio_token', 'melhor_envio_webhook_secret') then value is null and sealed is not null else sealed is null and value is not null end)
);
--> statement-breakpoint
-- Every instance hears a change of connections (made on any of them) and drops its copy: a
-- provider typed in the admin takes effect everywhere without a restart.
CREATE TRIGGER store_connections_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_connections
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
