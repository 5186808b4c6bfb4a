-- The sterilization list's total for one owner and whole UTC days is a sum of these rows
-- instead of a count of its records (a few hundred rows a year, however many records they stand for).
-- The table keeps its name; each row now counts every record of its owner's day as well as the OK ones.
ALTER TABLE "sterilization_daily_ok_counts" ADD COLUMN "record_count" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- 0005's trigger function, counting every record: a stored record adds one to its owner's UTC day (and
-- to the OK count when its status is 0), a change of its owner, status or time moves it, a delete
-- removes it (the deferral for bulk writers is unchanged).
CREATE OR REPLACE FUNCTION "sterilization_ok_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "sterilization_daily_ok_counts"
      SET "ok_count" = "ok_count" - (OLD."status_code" = 0)::integer, "record_count" = "record_count" - 1
      WHERE "customer_id" = OLD."customer_id" AND "day" = (OLD."received_ts" AT TIME ZONE 'UTC')::date;
  END IF;
  IF TG_OP = 'UPDATE' OR (TG_OP = 'INSERT'
      AND current_setting('uvtrace.deferred_ok_counts', true) IS DISTINCT FROM 'on') THEN
    INSERT INTO "sterilization_daily_ok_counts" ("customer_id", "day", "ok_count", "record_count")
      VALUES (NEW."customer_id", (NEW."received_ts" AT TIME ZONE 'UTC')::date, (NEW."status_code" = 0)::integer, 1)
    ON CONFLICT ("customer_id", "day") DO UPDATE SET
      "ok_count" = "sterilization_daily_ok_counts"."ok_count" + excluded."ok_count",
      "record_count" = "sterilization_daily_ok_counts"."record_count" + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Records stored before this migration.
INSERT INTO "sterilization_daily_ok_counts" ("customer_id", "day", "ok_count", "record_count")
  SELECT "customer_id", ("received_ts" AT TIME ZONE 'UTC')::date,
    (count(*) FILTER (WHERE "status_code" = 0))::integer, count(*)::integer
  FROM "sterilizations" GROUP BY 1, 2
ON CONFLICT ("customer_id", "day") DO UPDATE SET
  "ok_count" = excluded."ok_count", "record_count" = excluded."record_count";
