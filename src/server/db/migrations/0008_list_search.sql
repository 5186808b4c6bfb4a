-- The lists' free-text search (q) is a case-insensitive substring match (ILIKE '%…%'), which no
-- btree serves; trigram GIN indexes do. pg_trgm is a trusted extension (PostgreSQL 13+), so the
-- database owner may create it; embedded PGlite loads it at start (db/pglite-extensions.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "certificates_lot_number_trgm_idx" ON "certificates" USING gin ("lot_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "certificates_treatment_trgm_idx" ON "certificates" USING gin ("validated_treatment_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_name_trgm_idx" ON "customers" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_city_trgm_idx" ON "customers" USING gin ("city" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_label_trgm_idx" ON "devices" USING gin ("label" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_device_serial_trgm_idx" ON "devices" USING gin ("device_serial" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);