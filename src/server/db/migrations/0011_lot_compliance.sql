-- Lot compliance (docs/adr/0024-lot-compliance-and-recall.md): every record carries whether a certificate
-- covers its consumables lot on the day it was received. drizzle-kit generated the column, the two
-- partial indexes and the check; they are reordered by hand so that the column is filled before the
-- indexes are built, and the functions and triggers that keep it are written here.
ALTER TABLE "sterilizations" ADD COLUMN "lot_status" text DEFAULT 'no_lot' NOT NULL;--> statement-breakpoint
-- A lot is certified on a day when one of its certificates (a lot may have several, one per validated
-- treatment) expires on that day or later; days are UTC, as everywhere else in the product.
CREATE FUNCTION "lot_status_on"("best_expiration" date, "received" timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN "best_expiration" IS NULL THEN 'uncertified'
    WHEN ("received" AT TIME ZONE 'UTC')::date <= "best_expiration" THEN 'certified'
    ELSE 'expired'
  END
$$;
--> statement-breakpoint
-- A record's status when it is stored or its lot or time change. The shared advisory lock on the lot
-- pairs with the certificate trigger's exclusive one: a certificate written while a record of its lot
-- is being stored waits for that record to commit (and then sees it), or the record waits for the
-- certificate and reads it, so neither can miss the other.
CREATE FUNCTION "sterilization_lot_status_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A bulk writer (the seed, in one transaction of its own) computes the status in its INSERT … SELECT.
  IF TG_OP = 'INSERT' AND current_setting('uvtrace.lot_status_supplied', true) = 'on' THEN
    RETURN NEW;
  END IF;
  IF NEW."consumables_lot" IS NULL OR NEW."consumables_lot" = '' THEN
    NEW."lot_status" := 'no_lot';
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(hashtext('lot:' || NEW."consumables_lot"));
  -- One statement, so lot_status_on is inlined (a call from a PL/pgSQL expression is not): measured
  -- 3.5× cheaper per record.
  NEW."lot_status" := (SELECT "lot_status_on"(max("expiration_date"), NEW."received_ts")
    FROM "certificates" WHERE "lot_number" = NEW."consumables_lot");
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_lot_status_insert" BEFORE INSERT ON "sterilizations"
  FOR EACH ROW EXECUTE FUNCTION "sterilization_lot_status_follow"();
--> statement-breakpoint
CREATE TRIGGER "sterilizations_lot_status_update" BEFORE UPDATE OF "consumables_lot", "received_ts"
  ON "sterilizations" FOR EACH ROW EXECUTE FUNCTION "sterilization_lot_status_follow"();
--> statement-breakpoint
-- Every record of one lot, again: after a certificate of that lot is stored, changed or deleted.
CREATE FUNCTION "lot_status_refresh"("lot" text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "best" date;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lot:' || "lot"));
  SELECT max("expiration_date") INTO "best" FROM "certificates" WHERE "lot_number" = "lot";
  UPDATE "sterilizations" SET "lot_status" = "lot_status_on"("best", "received_ts")
    WHERE "consumables_lot" = "lot" AND "lot_status" <> "lot_status_on"("best", "received_ts");
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "certificate_lot_status_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM "lot_status_refresh"(OLD."lot_number");
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."lot_number" IS DISTINCT FROM OLD."lot_number") THEN
    PERFORM "lot_status_refresh"(NEW."lot_number");
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "certificates_lot_status_insert" AFTER INSERT ON "certificates"
  FOR EACH ROW EXECUTE FUNCTION "certificate_lot_status_follow"();
--> statement-breakpoint
CREATE TRIGGER "certificates_lot_status_update" AFTER UPDATE OF "lot_number", "expiration_date"
  ON "certificates" FOR EACH ROW EXECUTE FUNCTION "certificate_lot_status_follow"();
--> statement-breakpoint
CREATE TRIGGER "certificates_lot_status_delete" AFTER DELETE ON "certificates"
  FOR EACH ROW EXECUTE FUNCTION "certificate_lot_status_follow"();
--> statement-breakpoint
UPDATE "sterilizations" s SET "lot_status" = "lot_status_on"(
    (SELECT max(c."expiration_date") FROM "certificates" c WHERE c."lot_number" = s."consumables_lot"),
    s."received_ts")
  WHERE s."consumables_lot" IS NOT NULL AND s."consumables_lot" <> '';--> statement-breakpoint
CREATE TABLE "lot_flag_counts" (
	"customer_id" integer NOT NULL,
	"consumables_lot" text NOT NULL,
	"flagged" integer NOT NULL,
	CONSTRAINT "lot_flag_counts_pk" PRIMARY KEY("customer_id","consumables_lot")
);
--> statement-breakpoint
-- The dashboard's flagged figures, per owner and lot: a flagged record adds one, a change of its status,
-- lot or owner moves it, a delete removes it. Records that are not flagged cost one comparison. A bulk
-- writer that defers the daily OK counts (uvtrace.deferred_ok_counts) recounts these too.
CREATE FUNCTION "lot_flag_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."lot_status" IN ('uncertified', 'expired') THEN
    UPDATE "lot_flag_counts" SET "flagged" = "flagged" - 1
      WHERE "customer_id" = OLD."customer_id" AND "consumables_lot" = OLD."consumables_lot";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."lot_status" IN ('uncertified', 'expired') AND (TG_OP = 'UPDATE'
      OR current_setting('uvtrace.deferred_ok_counts', true) IS DISTINCT FROM 'on') THEN
    INSERT INTO "lot_flag_counts" ("customer_id", "consumables_lot", "flagged")
      VALUES (NEW."customer_id", NEW."consumables_lot", 1)
    ON CONFLICT ("customer_id", "consumables_lot")
      DO UPDATE SET "flagged" = "lot_flag_counts"."flagged" + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_lot_flag_counts_insert" AFTER INSERT ON "sterilizations"
  FOR EACH ROW EXECUTE FUNCTION "lot_flag_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "sterilizations_lot_flag_counts_update" AFTER UPDATE OF "lot_status", "consumables_lot", "customer_id"
  ON "sterilizations" FOR EACH ROW EXECUTE FUNCTION "lot_flag_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "sterilizations_lot_flag_counts_delete" AFTER DELETE ON "sterilizations"
  FOR EACH ROW EXECUTE FUNCTION "lot_flag_counts_follow"();
--> statement-breakpoint
CREATE FUNCTION "lot_flag_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "lot_flag_counts";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_lot_flag_counts_truncate" AFTER TRUNCATE ON "sterilizations"
  FOR EACH STATEMENT EXECUTE FUNCTION "lot_flag_counts_truncated"();
--> statement-breakpoint
ALTER TABLE "sterilizations" ADD CONSTRAINT "sterilizations_lot_status_chk" CHECK ("sterilizations"."lot_status" in ('certified', 'uncertified', 'expired', 'no_lot'));--> statement-breakpoint
CREATE INDEX "sterilizations_lot_open_received_ts_idx" ON "sterilizations" USING btree ("received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "sterilizations"."lot_status" <> 'certified';--> statement-breakpoint
CREATE INDEX "sterilizations_customer_lot_open_received_ts_idx" ON "sterilizations" USING btree ("customer_id","received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "sterilizations"."lot_status" <> 'certified';--> statement-breakpoint
INSERT INTO "lot_flag_counts" ("customer_id", "consumables_lot", "flagged")
  SELECT "customer_id", "consumables_lot", count(*)::integer FROM "sterilizations"
  WHERE "lot_status" IN ('uncertified', 'expired') GROUP BY 1, 2;
