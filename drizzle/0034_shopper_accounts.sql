CREATE TABLE "shopper_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"shopper_id" uuid NOT NULL,
	"zip_code" text NOT NULL,
	"street" text NOT NULL,
	"number" text NOT NULL,
	"complement" text DEFAULT '' NOT NULL,
	"neighborhood" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shopper_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text,
	"tries" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shopper_codes_purpose_check" CHECK ("shopper_codes"."purpose" in ('sign-in', 'delete')),
	CONSTRAINT "shopper_codes_tries_check" CHECK ("shopper_codes"."tries" >= 0)
);
--> statement-breakpoint
CREATE TABLE "shopper_favorites" (
	"shopper_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shopper_favorites_shopper_id_product_id_pk" PRIMARY KEY("shopper_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "shopper_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"shopper_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shoppers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shoppers_email_lower_check" CHECK ("shoppers"."email" = lower("shoppers"."email"))
);
--> statement-breakpoint
ALTER TABLE "shopper_addresses" ADD CONSTRAINT "shopper_addresses_shopper_id_shoppers_id_fk" FOREIGN KEY ("shopper_id") REFERENCES "public"."shoppers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopper_favorites" ADD CONSTRAINT "shopper_favorites_shopper_id_shoppers_id_fk" FOREIGN KEY ("shopper_id") REFERENCES "public"."shoppers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopper_favorites" ADD CONSTRAINT "shopper_favorites_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopper_sessions" ADD CONSTRAINT "shopper_sessions_shopper_id_shoppers_id_fk" FOREIGN KEY ("shopper_id") REFERENCES "public"."shoppers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shopper_addresses_shopper_idx" ON "shopper_addresses" USING btree ("shopper_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shopper_addresses_default_idx" ON "shopper_addresses" USING btree ("shopper_id") WHERE "shopper_addresses"."is_default";--> statement-breakpoint
CREATE INDEX "shopper_codes_email_idx" ON "shopper_codes" USING btree ("email","purpose","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "shopper_codes_expires_at_idx" ON "shopper_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "shopper_sessions_shopper_idx" ON "shopper_sessions" USING btree ("shopper_id");--> statement-breakpoint
CREATE INDEX "shopper_sessions_expires_at_idx" ON "shopper_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shoppers_email_idx" ON "shoppers" USING btree ("email");--> statement-breakpoint
CREATE INDEX "orders_email_created_at_idx" ON "orders" USING btree ("customer_email","created_at" DESC NULLS FIRST);