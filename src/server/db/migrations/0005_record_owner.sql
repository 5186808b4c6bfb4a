-- A record belongs to the customer that owned its device when it was received
-- (docs/adr/0010-record-owner.md). drizzle-kit generated the statements below from schema.ts; they are
-- reordered by hand so that the new NOT NULL columns are added empty, backfilled from each device's current
-- customer (the only owner known for records stored before this migration) and only then constrained, and so
-- that the indexes are built once, after the backfill.
CREATE TABLE "device_owners" (
	"device_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	CONSTRAINT "device_owners_pk" PRIMARY KEY("device_id","customer_id")
);
--> statement-breakpoint
ALTER TABLE "device_owners" ADD CONSTRAINT "device_owners_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_owners" ADD CONSTRAINT "device_owners_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_owners_customer_idx" ON "device_owners" USING btree ("customer_id","device_id");--> statement-breakpoint
INSERT INTO "device_owners" ("device_id", "customer_id") SELECT "id", "customer_id" FROM "devices";
--> statement-breakpoint
-- Whatever creates or reassigns a device (the API, the seed, a console) records the pair, so the
-- ownership history cannot miss an owner. Devices change rarely: no cost on ingestion.
CREATE FUNCTION "device_owners_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_owners" ("device_id", "customer_id") VALUES (NEW."id", NEW."customer_id")
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "devices_owners_insert" AFTER INSERT ON "devices"
  FOR EACH ROW EXECUTE FUNCTION "device_owners_follow"();
--> statement-breakpoint
CREATE TRIGGER "devices_owners_update" AFTER UPDATE OF "customer_id" ON "devices"
  FOR EACH ROW EXECUTE FUNCTION "device_owners_follow"();
--> statement-breakpoint
DROP INDEX "sterilizations_device_received_ts_id_idx";--> statement-breakpoint
DROP INDEX "sterilizations_device_lot_id_idx";--> statement-breakpoint
ALTER TABLE "sterilizations" ADD COLUMN "customer_id" integer;--> statement-breakpoint
UPDATE "sterilizations" s SET "customer_id" = d."customer_id" FROM "devices" d WHERE d."id" = s."device_id";--> statement-breakpoint
ALTER TABLE "sterilizations" ALTER COLUMN "customer_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sterilizations" ADD CONSTRAINT "sterilizations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sterilizations_customer_received_ts_id_idx" ON "sterilizations" USING btree ("customer_id","received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sterilizations_customer_lot_id_idx" ON "sterilizations" USING btree ("customer_id","consumables_lot","id");--> statement-breakpoint
CREATE INDEX "sterilizations_device_customer_received_ts_id_idx" ON "sterilizations" USING btree ("device_id","customer_id","received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sterilizations_device_customer_lot_id_idx" ON "sterilizations" USING btree ("device_id","customer_id","consumables_lot","id");--> statement-breakpoint
DROP INDEX "consumable_batches_device_lot_uq";--> statement-breakpoint
ALTER TABLE "consumable_batches" ADD COLUMN "customer_id" integer;--> statement-breakpoint
UPDATE "consumable_batches" b SET "customer_id" = d."customer_id" FROM "devices" d WHERE d."id" = b."device_id";--> statement-breakpoint
ALTER TABLE "consumable_batches" ALTER COLUMN "customer_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "consumable_batches" ADD CONSTRAINT "consumable_batches_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "consumable_batches_device_owner_lot_uq" ON "consumable_batches" USING btree ("device_id","customer_id","lot_code","lot_progressive");--> statement-breakpoint
-- The daily OK counts are kept per owner from now on (counted again below).
DELETE FROM "sterilization_daily_ok_counts";--> statement-breakpoint
ALTER TABLE "sterilization_daily_ok_counts" DROP CONSTRAINT "sterilization_daily_ok_counts_pk";--> statement-breakpoint
ALTER TABLE "sterilization_daily_ok_counts" DROP COLUMN "device_id";--> statement-breakpoint
ALTER TABLE "sterilization_daily_ok_counts" ADD COLUMN "customer_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "sterilization_daily_ok_counts" ADD CONSTRAINT "sterilization_daily_ok_counts_pk" PRIMARY KEY("customer_id","day");
--> statement-breakpoint
-- 0004's trigger function, by owner: a stored record adds one to its owner's UTC day, a change of its
-- owner, status or time moves it, a delete removes it (the deferral for bulk writers is unchanged).
CREATE OR REPLACE FUNCTION "sterilization_ok_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD."status_code" = 0 THEN
      UPDATE "sterilization_daily_ok_counts" SET "ok_count" = "ok_count" - 1
        WHERE "customer_id" = OLD."customer_id" AND "day" = (OLD."received_ts" AT TIME ZONE 'UTC')::date;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NEW."status_code" = 0 AND (TG_OP = 'UPDATE'
        OR current_setting('uvtrace.deferred_ok_counts', true) IS DISTINCT FROM 'on') THEN
      INSERT INTO "sterilization_daily_ok_counts" ("customer_id", "day", "ok_count")
        VALUES (NEW."customer_id", (NEW."received_ts" AT TIME ZONE 'UTC')::date, 1)
      ON CONFLICT ("customer_id", "day")
        DO UPDATE SET "ok_count" = "sterilization_daily_ok_counts"."ok_count" + 1;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER "sterilizations_ok_counts_update" ON "sterilizations";--> statement-breakpoint
CREATE TRIGGER "sterilizations_ok_counts_update" AFTER UPDATE OF "customer_id", "status_code", "received_ts"
  ON "sterilizations" FOR EACH ROW EXECUTE FUNCTION "sterilization_ok_counts_follow"();
--> statement-breakpoint
INSERT INTO "sterilization_daily_ok_counts" ("customer_id", "day", "ok_count")
  SELECT "customer_id", ("received_ts" AT TIME ZONE 'UTC')::date, count(*)::integer
  FROM "sterilizations" WHERE "status_code" = 0
  GROUP BY 1, 2;
