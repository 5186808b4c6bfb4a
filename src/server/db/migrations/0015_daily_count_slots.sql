ALTER TABLE "sterilization_daily_ok_counts" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sterilization_daily_ok_counts" DROP CONSTRAINT "sterilization_daily_ok_counts_pk";
--> statement-breakpoint
ALTER TABLE "sterilization_daily_ok_counts" ADD CONSTRAINT "sterilization_daily_ok_counts_pk" PRIMARY KEY("customer_id","day","slot");--> statement-breakpoint
-- Every stored record added one to its owner's single row of the day, so all the writes of an
-- owner's devices queued for that row's lock, each until the one before it committed (a WAL flush): with
-- 16 single-record requests in flight, most of the insert's time was spent waiting on it. Now a day has up
-- to 8 rows, and a connection always counts in the same one (its backend pid modulo 8): writers on
-- different connections rarely meet, and a transaction still takes an owner's rows in owner order, one
-- row per owner and day, so the writer's lock order (record-writer.ts) is unchanged. Readers already sum
-- a range of days; a day's figure is now the sum of its rows. A move (an update of owner, status or time)
-- or a delete subtracts in the writer's own row, which may leave one row of a day negative: only sums
-- have a meaning.
CREATE OR REPLACE FUNCTION "sterilization_ok_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  own_slot smallint := (pg_backend_pid() % 8)::smallint;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "sterilization_daily_ok_counts" ("customer_id", "day", "slot", "ok_count", "record_count")
      VALUES (OLD."customer_id", (OLD."received_ts" AT TIME ZONE 'UTC')::date, own_slot,
        -(OLD."status_code" = 0)::integer, -1)
    ON CONFLICT ("customer_id", "day", "slot") DO UPDATE SET
      "ok_count" = "sterilization_daily_ok_counts"."ok_count" + excluded."ok_count",
      "record_count" = "sterilization_daily_ok_counts"."record_count" - 1;
  END IF;
  IF TG_OP = 'UPDATE' OR (TG_OP = 'INSERT'
      AND current_setting('uvtrace.deferred_ok_counts', true) IS DISTINCT FROM 'on') THEN
    INSERT INTO "sterilization_daily_ok_counts" ("customer_id", "day", "slot", "ok_count", "record_count")
      VALUES (NEW."customer_id", (NEW."received_ts" AT TIME ZONE 'UTC')::date, own_slot,
        (NEW."status_code" = 0)::integer, 1)
    ON CONFLICT ("customer_id", "day", "slot") DO UPDATE SET
      "ok_count" = "sterilization_daily_ok_counts"."ok_count" + excluded."ok_count",
      "record_count" = "sterilization_daily_ok_counts"."record_count" + 1;
  END IF;
  RETURN NULL;
END;
$$;
