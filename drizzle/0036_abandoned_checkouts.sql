CREATE TABLE "abandoned_checkouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"lines" jsonb NOT NULL,
	"value_cents" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"typed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"emailed_at" timestamp with time zone,
	"restored_at" timestamp with time zone,
	"converted_at" timestamp with time zone,
	"order_id" uuid,
	"order_total_cents" integer,
	"recovered" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "abandoned_checkouts_value_check" CHECK ("abandoned_checkouts"."value_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "recovery_keys" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"checkout_id" uuid,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_opt_outs" (
	"email" text PRIMARY KEY NOT NULL,
	"opted_out_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recovery_keys" ADD CONSTRAINT "recovery_keys_checkout_id_abandoned_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."abandoned_checkouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "abandoned_checkouts_open_idx" ON "abandoned_checkouts" USING btree ("typed_at") WHERE "abandoned_checkouts"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "abandoned_checkouts_open_email_idx" ON "abandoned_checkouts" USING btree ("email") WHERE "abandoned_checkouts"."status" = 'open';--> statement-breakpoint
CREATE INDEX "abandoned_checkouts_email_idx" ON "abandoned_checkouts" USING btree ("email");--> statement-breakpoint
CREATE INDEX "abandoned_checkouts_created_at_idx" ON "abandoned_checkouts" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "abandoned_checkouts_converted_idx" ON "abandoned_checkouts" USING btree ("converted_at") WHERE "abandoned_checkouts"."recovered";--> statement-breakpoint
CREATE INDEX "recovery_keys_email_idx" ON "recovery_keys" USING btree ("email");--> statement-breakpoint
CREATE INDEX "recovery_keys_expires_idx" ON "recovery_keys" USING btree ("expires_at");