CREATE TABLE "coupons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	"min_subtotal_cents" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"usage_limit_per_customer" integer,
	"first_purchase_only" boolean DEFAULT false NOT NULL,
	"product_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"category_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"used_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_check" CHECK ("coupons"."code" ~ '^[A-Z0-9]{3,30}$'),
	CONSTRAINT "coupons_kind_check" CHECK ("coupons"."kind" in ('percent', 'fixed', 'free_shipping')),
	CONSTRAINT "coupons_value_check" CHECK (("coupons"."kind" = 'percent' and "coupons"."value" between 1 and 100) or ("coupons"."kind" = 'fixed' and "coupons"."value" > 0) or ("coupons"."kind" = 'free_shipping' and "coupons"."value" = 0)),
	CONSTRAINT "coupons_limits_check" CHECK ("coupons"."min_subtotal_cents" >= 0 and ("coupons"."usage_limit" is null or "coupons"."usage_limit" > 0) and ("coupons"."usage_limit_per_customer" is null or "coupons"."usage_limit_per_customer" > 0)),
	CONSTRAINT "coupons_used_count_check" CHECK ("coupons"."used_count" >= 0 and ("coupons"."usage_limit" is null or "coupons"."used_count" <= "coupons"."usage_limit")),
	CONSTRAINT "coupons_window_check" CHECK ("coupons"."starts_at" is null or "coupons"."ends_at" is null or "coupons"."starts_at" < "coupons"."ends_at")
);
--> statement-breakpoint
CREATE TABLE "order_adjustments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"coupon_id" uuid,
	CONSTRAINT "order_adjustments_kind_check" CHECK ("order_adjustments"."kind" in ('coupon', 'pix')),
	CONSTRAINT "order_adjustments_coupon_check" CHECK (("order_adjustments"."kind" = 'coupon') = ("order_adjustments"."coupon_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "order_adjustments" ADD CONSTRAINT "order_adjustments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_adjustments" ADD CONSTRAINT "order_adjustments_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_idx" ON "coupons" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "order_adjustments_order_position_idx" ON "order_adjustments" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "order_adjustments_coupon_id_idx" ON "order_adjustments" USING btree ("coupon_id") WHERE "order_adjustments"."coupon_id" is not null;--> statement-breakpoint
-- Every order so far was paid by PIX: its discount becomes its one adjustment, labelled as the
-- screens named it (the percentage read back from the amounts: the discount was rounded down).
INSERT INTO "order_adjustments" ("order_id", "position", "kind", "label", "amount_cents")
  SELECT "id", 1, 'pix',
    'Desconto PIX (' || ceil("discount_cents" * 100::numeric / "subtotal_cents")::integer || '%)',
    -"discount_cents"
  FROM "orders" WHERE "discount_cents" > 0;