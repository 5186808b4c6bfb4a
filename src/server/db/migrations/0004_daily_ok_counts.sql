CREATE TABLE "sterilization_daily_ok_counts" (
	"device_id" integer NOT NULL,
	"day" date NOT NULL,
	"ok_count" integer NOT NULL,
	CONSTRAINT "sterilization_daily_ok_counts_pk" PRIMARY KEY("device_id","day")
);
--> statement-breakpoint
-- The counts follow the records whatever writes them (ingestion, the seed, a console): an insert
-- statement adds its status-0 rows per device and UTC day in one aggregated upsert (statement-level,
-- so a bulk insert costs one upsert per device-day, not one per row); changing a record's device,
-- status or time, or deleting it, moves it between buckets (row-level: these are rare); TRUNCATE
-- empties the counts.
CREATE FUNCTION "sterilization_ok_counts_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "sterilization_daily_ok_counts" ("device_id", "day", "ok_count")
    SELECT "device_id", ("received_ts" AT TIME ZONE 'UTC')::date, count(*)::integer
    FROM "inserted_rows" WHERE "status_code" = 0
    GROUP BY 1, 2
  ON CONFLICT ("device_id", "day")
    DO UPDATE SET "ok_count" = "sterilization_daily_ok_counts"."ok_count" + EXCLUDED."ok_count";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_ok_counts_insert" AFTER INSERT ON "sterilizations"
  REFERENCING NEW TABLE AS "inserted_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "sterilization_ok_counts_inserted"();
--> statement-breakpoint
CREATE FUNCTION "sterilization_ok_counts_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."status_code" = 0 THEN
    UPDATE "sterilization_daily_ok_counts" SET "ok_count" = "ok_count" - 1
      WHERE "device_id" = OLD."device_id" AND "day" = (OLD."received_ts" AT TIME ZONE 'UTC')::date;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."status_code" = 0 THEN
    INSERT INTO "sterilization_daily_ok_counts" ("device_id", "day", "ok_count")
      VALUES (NEW."device_id", (NEW."received_ts" AT TIME ZONE 'UTC')::date, 1)
    ON CONFLICT ("device_id", "day")
      DO UPDATE SET "ok_count" = "sterilization_daily_ok_counts"."ok_count" + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_ok_counts_update" AFTER UPDATE OF "device_id", "status_code", "received_ts"
  ON "sterilizations" FOR EACH ROW EXECUTE FUNCTION "sterilization_ok_counts_changed"();
--> statement-breakpoint
CREATE TRIGGER "sterilizations_ok_counts_delete" AFTER DELETE ON "sterilizations"
  FOR EACH ROW EXECUTE FUNCTION "sterilization_ok_counts_changed"();
--> statement-breakpoint
CREATE FUNCTION "sterilization_ok_counts_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "sterilization_daily_ok_counts";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_ok_counts_truncate" AFTER TRUNCATE ON "sterilizations"
  FOR EACH STATEMENT EXECUTE FUNCTION "sterilization_ok_counts_truncated"();
--> statement-breakpoint
-- Records stored before this migration.
INSERT INTO "sterilization_daily_ok_counts" ("device_id", "day", "ok_count")
  SELECT "device_id", ("received_ts" AT TIME ZONE 'UTC')::date, count(*)::integer
  FROM "sterilizations" WHERE "status_code" = 0
  GROUP BY 1, 2;
