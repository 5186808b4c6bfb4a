CREATE TABLE "blockchain_data_blocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"network" text NOT NULL,
	"transaction_hash" text,
	"merkle_root" text,
	"hashing_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"mined_at" timestamp with time zone,
	CONSTRAINT "blockchain_data_blocks_status_chk" CHECK ("blockchain_data_blocks"."status" in ('PENDING', 'SENT', 'MINED', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "certificate_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"certificate_id" integer NOT NULL,
	"language" text NOT NULL,
	"content" "bytea" NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	CONSTRAINT "certificate_files_language_chk" CHECK ("certificate_files"."language" in ('it', 'en'))
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"lot_number" text NOT NULL,
	"validated_treatment_number" text NOT NULL,
	"expiration_date" date NOT NULL,
	"it_file_name" text NOT NULL,
	"en_file_name" text,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consumable_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"lot_code" text NOT NULL,
	"lot_progressive" integer NOT NULL,
	"batch_quantity" integer NOT NULL,
	"sterilization_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consumable_batches_quantity_chk" CHECK ("consumable_batches"."batch_quantity" > 0),
	CONSTRAINT "consumable_batches_count_chk" CHECK ("consumable_batches"."sterilization_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text,
	"postcode" text,
	"city" text,
	"country" char(2) NOT NULL,
	"email" text,
	"phone" text,
	"referrer" text,
	"enable_blockchain" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "customers_country_chk" CHECK ("customers"."country" ~ '^[A-Za-z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"device_serial" varchar(8) NOT NULL,
	"label" text NOT NULL,
	"public_key" text,
	"public_key_2" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "devices_device_serial_uq" UNIQUE("device_serial"),
	CONSTRAINT "devices_device_serial_chk" CHECK (char_length("devices"."device_serial") = 8)
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "products_type_chk" CHECK ("products"."type" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text,
	"user_agent" text,
	CONSTRAINT "sessions_token_hash_uq" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "sterilizations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"received_ts" timestamp with time zone DEFAULT now() NOT NULL,
	"progressive_id" integer NOT NULL,
	"supplied_energy" numeric(12, 2) NOT NULL,
	"nominal_time" numeric(10, 2) NOT NULL,
	"effective_time" numeric(10, 2) NOT NULL,
	"residual_lamp_life" numeric(12, 2) NOT NULL,
	"status_code" integer NOT NULL,
	"latitude" numeric(9, 6),
	"longitude" numeric(9, 6),
	"consumables_lot" text,
	"lot_progressive_id" integer,
	"notes" text,
	"hashing_version" integer,
	"blockchain_data_block_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "users_role_chk" CHECK ("users"."role" in ('CUSTOMER', 'CUSTOMER_CARE', 'ADMIN', 'SUPER_ADMIN'))
);
--> statement-breakpoint
ALTER TABLE "certificate_files" ADD CONSTRAINT "certificate_files_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consumable_batches" ADD CONSTRAINT "consumable_batches_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sterilizations" ADD CONSTRAINT "sterilizations_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sterilizations" ADD CONSTRAINT "sterilizations_blockchain_data_block_id_blockchain_data_blocks_id_fk" FOREIGN KEY ("blockchain_data_block_id") REFERENCES "public"."blockchain_data_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blockchain_data_blocks_status_idx" ON "blockchain_data_blocks" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_files_certificate_language_uq" ON "certificate_files" USING btree ("certificate_id","language");--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_lot_treatment_uq" ON "certificates" USING btree ("lot_number","validated_treatment_number");--> statement-breakpoint
CREATE INDEX "certificates_treatment_idx" ON "certificates" USING btree ("validated_treatment_number");--> statement-breakpoint
CREATE INDEX "certificates_expiration_date_idx" ON "certificates" USING btree ("expiration_date");--> statement-breakpoint
CREATE UNIQUE INDEX "consumable_batches_device_lot_uq" ON "consumable_batches" USING btree ("device_id","lot_code","lot_progressive");--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "devices_label_idx" ON "devices" USING btree ("label","id");--> statement-breakpoint
CREATE INDEX "devices_customer_id_idx" ON "devices" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "devices_product_id_idx" ON "devices" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "products_name_idx" ON "products" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sterilizations_device_progressive_uq" ON "sterilizations" USING btree ("device_id","progressive_id");--> statement-breakpoint
CREATE INDEX "sterilizations_received_ts_idx" ON "sterilizations" USING btree ("received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sterilizations_device_received_ts_idx" ON "sterilizations" USING btree ("device_id","received_ts" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sterilizations_consumables_lot_idx" ON "sterilizations" USING btree ("consumables_lot");--> statement-breakpoint
CREATE INDEX "sterilizations_block_id_idx" ON "sterilizations" USING btree ("blockchain_data_block_id");--> statement-breakpoint
CREATE INDEX "sterilizations_status_code_idx" ON "sterilizations" USING btree ("status_code");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "users_customer_id_idx" ON "users" USING btree ("customer_id");