ALTER TABLE "sandbox_payments" ALTER COLUMN "pix_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD COLUMN "method" text DEFAULT 'pix' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD COLUMN "installments" integer;--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD CONSTRAINT "sandbox_payments_method_check" CHECK (method in ('pix', 'credit_card', 'boleto'));--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD CONSTRAINT "sandbox_payments_pix_code_check" CHECK (("sandbox_payments"."method" = 'pix') = ("sandbox_payments"."pix_code" is not null));--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD CONSTRAINT "sandbox_payments_installments_check" CHECK ("sandbox_payments"."installments" is null or ("sandbox_payments"."method" = 'credit_card' and "sandbox_payments"."installments" between 1 and 24));