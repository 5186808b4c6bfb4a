CREATE TABLE "sterilization_daily_ok_counts" (
	"device_id" integer NOT NULL,
	"day" date NOT NULL,
	"ok_count" integer NOT NULL,
	CONSTRAINT "sterilization_daily_ok_counts_pk" PRIMARY KEY("device_id","day")
);
--> statement-breakpoint
-- The counts follow the records whatever writes them (ingestion, a console, a test): a stored record
-- adds one to its device's UTC day, a change of its device, status or time moves it, a delete removes
-- it, a TRUNCATE empties the counts. Row-level: one upsert per record, about 0.1 ms on PGlite (a
-- statement-level trigger over a transition table measured 0.2-0.35 ms for the one-record inserts of
-- ingestion). A bulk writer (the seed) may set `uvtrace.deferred_ok_counts` to 'on' for its
-- transaction and recount once at the end instead (db/daily-ok-counts.ts).
CREATE FUNCTION "sterilization_ok_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD."status_code" = 0 THEN
      UPDATE "sterilization_daily_ok_counts" SET "ok_count" = "ok_count" - 1
        WHERE "device_id" = OLD."device_id" AND "day" = (OLD."received_ts" AT TIME ZONE 'UTC')::date;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NEW."status_code" = 0 AND (TG_OP = 'UPDATE'
        OR current_setting('uvtrace.deferred_ok_counts', true) IS DISTINCT FROM 'on') THEN
      INSERT INTO "sterilization_daily_ok_counts" ("device_id", "day", "ok_count")
        VALUES (NEW."device_id", (NEW."received_ts" AT TIME ZONE 'UTC')::date, 1)
      ON CONFLICT ("device_id", "day")
        DO UPDATE SET "ok_count" = "sterilization_daily_ok_counts"."ok_count" + 1;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_ok_counts_insert" AFTER INSERT ON "sterilizations"
  FOR EACH ROW EXECUTE FUNCTION "sterilization_ok_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "sterilizations_ok_counts_update" AFTER UPDATE OF "device_id", "status_code", "received_ts"
  ON "sterilizations" FOR EACH ROW EXECUTE FUNCTION "sterilization_ok_counts_follow"();
--> statement-breakpoint
CREATE TRIGGER "sterilizations_ok_counts_delete" AFTER DELETE ON "sterilizations"
  FOR EACH ROW EXECUTE FUNCTION "sterilization_ok_counts_follow"();
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
