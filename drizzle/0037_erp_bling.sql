-- Issue 42: notas fiscais through the merchant's ERP (Bling). Its OAuth tokens sealed like every
-- secret (ADR 038), a callback's state by its hash only, and each order's sales order and NF-e there.
CREATE TABLE "erp_connections" (
	"provider" text PRIMARY KEY NOT NULL,
	"sealed_access_token" text NOT NULL,
	"sealed_refresh_token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"refresh_lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_connections_sealed_check" CHECK ("erp_connections"."sealed_access_token" like 'v1.%'),
	CONSTRAINT "erp_connections_sealed_refresh_check" CHECK ("erp_connections"."sealed_refresh_token" like 'v1.%')
);
--> statement-breakpoint
CREATE TABLE "erp_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_orders" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"send_state" text NOT NULL,
	"erp_order_id" text,
	"send_error" text,
	"invoice_requested" boolean DEFAULT false NOT NULL,
	"invoice_id" text,
	"invoice_state" text,
	"invoice_number" text,
	"invoice_key" text,
	"danfe_url" text,
	"invoice_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_orders_send_state_check" CHECK ("erp_orders"."send_state" in ('queued', 'sent', 'refused')),
	CONSTRAINT "erp_orders_invoice_state_check" CHECK ("erp_orders"."invoice_state" is null or "erp_orders"."invoice_state" in ('issuing', 'pending', 'authorized', 'rejected', 'cancelled')),
	CONSTRAINT "erp_orders_invoice_key_check" CHECK ("erp_orders"."invoice_key" is null or "erp_orders"."invoice_key" ~ '^[0-9]{44}$'),
	CONSTRAINT "erp_orders_sent_check" CHECK (("erp_orders"."send_state" = 'sent') = ("erp_orders"."erp_order_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "store_connections" DROP CONSTRAINT "store_connections_one_form_check";--> statement-breakpoint
ALTER TABLE "erp_orders" ADD CONSTRAINT "erp_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_connections" ADD CONSTRAINT "store_connections_one_form_check" CHECK (case when name in ('mercadopago_access_token', 'mercadopago_webhook_secret', 'gateway_secret_key', 'smtp_url', 'melhor_envio_token', 'melhor_envio_webhook_secret', 'pix_api_client_secret', 'pix_api_certificate', 'pix_api_certificate_password', 'bling_client_secret') then value is null and sealed is not null else sealed is null and value is not null end);