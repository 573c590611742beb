CREATE TABLE "recurring_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_tokens" (
	"name" text PRIMARY KEY NOT NULL,
	"sealed" text,
	"expires_at" timestamp with time zone,
	"renewing_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "store_connections" DROP CONSTRAINT "store_connections_one_form_check";--> statement-breakpoint
ALTER TABLE "store_connections" ADD CONSTRAINT "store_connections_one_form_check" CHECK (case when name in ('mercadopago_access_token', 'mercadopago_webhook_secret', 'gateway_secret_key', 'smtp_url', 'melhor_envio_token', 'melhor_envio_webhook_secret', 'pix_api_client_secret', 'pix_api_certificate', 'pix_api_certificate_password') then value is null and sealed is not null else sealed is null and value is not null end);