CREATE TABLE "report_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"version" integer NOT NULL,
	"pdf" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"signer_user_id" integer NOT NULL,
	"signer_name" text NOT NULL,
	"signer_email" text NOT NULL,
	"meaning" text NOT NULL,
	"comment" text,
	"signed_at" timestamp with time zone NOT NULL,
	"blockchain_data_block_id" integer,
	"merkle_proof" text[],
	CONSTRAINT "report_versions_meaning_chk" CHECK ("report_versions"."meaning" in ('reviewed', 'approved')),
	CONSTRAINT "report_versions_sha256_chk" CHECK ("report_versions"."sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "report_versions_version_chk" CHECK ("report_versions"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"language" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"draft_pdf" "bytea" NOT NULL,
	"draft_sha256" text NOT NULL,
	CONSTRAINT "reports_language_chk" CHECK ("reports"."language" in ('en', 'it')),
	CONSTRAINT "reports_period_chk" CHECK ("reports"."period_to" >= "reports"."period_from"),
	CONSTRAINT "reports_draft_sha256_chk" CHECK ("reports"."draft_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_signer_user_id_users_id_fk" FOREIGN KEY ("signer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_blockchain_data_block_id_blockchain_data_blocks_id_fk" FOREIGN KEY ("blockchain_data_block_id") REFERENCES "public"."blockchain_data_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_versions_report_version_uq" ON "report_versions" USING btree ("report_id","version");--> statement-breakpoint
CREATE INDEX "report_versions_block_id_idx" ON "report_versions" USING btree ("blockchain_data_block_id");--> statement-breakpoint
CREATE INDEX "report_versions_waiting_idx" ON "report_versions" USING btree ("id") WHERE "report_versions"."blockchain_data_block_id" is null;--> statement-breakpoint
CREATE INDEX "reports_customer_created_idx" ON "reports" USING btree ("customer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- A report's draft and its signed versions never change and are never deleted (21 CFR 11.10(c), 11.70):
-- only the anchor worker's columns of a version (its block and proof) may be written after the insert.
CREATE FUNCTION "reports_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is immutable: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "report_versions_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND (NEW.id, NEW.report_id, NEW.version, NEW.pdf, NEW.sha256, NEW.size_bytes, NEW.signer_user_id,
          NEW.signer_name, NEW.signer_email, NEW.meaning, NEW.comment, NEW.signed_at)
         IS NOT DISTINCT FROM
         (OLD.id, OLD.report_id, OLD.version, OLD.pdf, OLD.sha256, OLD.size_bytes, OLD.signer_user_id,
          OLD.signer_name, OLD.signer_email, OLD.meaning, OLD.comment, OLD.signed_at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is immutable: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "reports_immutable" BEFORE UPDATE OR DELETE ON "reports"
  FOR EACH ROW EXECUTE FUNCTION "reports_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "report_versions_immutable" BEFORE UPDATE OR DELETE ON "report_versions"
  FOR EACH ROW EXECUTE FUNCTION "report_versions_refuse_change"();
--> statement-breakpoint
CREATE FUNCTION "reports_refuse_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is immutable: TRUNCATE refused', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "reports_no_truncate" BEFORE TRUNCATE ON "reports"
  FOR EACH STATEMENT EXECUTE FUNCTION "reports_refuse_truncate"();
--> statement-breakpoint
CREATE TRIGGER "report_versions_no_truncate" BEFORE TRUNCATE ON "report_versions"
  FOR EACH STATEMENT EXECUTE FUNCTION "reports_refuse_truncate"();
