-- Gaps and order (docs/adr/0023-gaps-and-arrival-order.md): per device and owner, the progressive ids a
-- device skipped (device_progress_gaps, ranges between the owner's lowest and highest stored id) and
-- the records stored after a higher id of the same device and owner (sterilizations.arrived_out_of_order).
-- Kept at ingestion by a row trigger, never recomputed on read. drizzle-kit generated the tables, column
-- and indexes; the functions, triggers and the backfill of stored records below are written by hand.
CREATE TABLE "device_progress" (
	"device_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"min_progressive_id" integer NOT NULL,
	"max_progressive_id" integer NOT NULL,
	"missing_count" bigint DEFAULT 0 NOT NULL,
	"out_of_order_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_progress_pk" PRIMARY KEY("device_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "device_progress_gaps" (
	"device_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"first_missing" integer NOT NULL,
	"last_missing" integer NOT NULL,
	CONSTRAINT "device_progress_gaps_pk" PRIMARY KEY("device_id","customer_id","first_missing"),
	CONSTRAINT "device_progress_gaps_range_chk" CHECK ("device_progress_gaps"."first_missing" <= "device_progress_gaps"."last_missing")
);
--> statement-breakpoint
ALTER TABLE "sterilizations" ADD COLUMN "arrived_out_of_order" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "device_progress" ADD CONSTRAINT "device_progress_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_progress" ADD CONSTRAINT "device_progress_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_progress_missing_idx" ON "device_progress" USING btree ("customer_id","device_id") WHERE "device_progress"."missing_count" > 0;--> statement-breakpoint
CREATE INDEX "sterilizations_out_of_order_received_ts_id_idx" ON "sterilizations" USING btree ("received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "sterilizations"."arrived_out_of_order";--> statement-breakpoint
CREATE INDEX "sterilizations_out_of_order_customer_received_ts_id_idx" ON "sterilizations" USING btree ("customer_id","received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "sterilizations"."arrived_out_of_order";--> statement-breakpoint
CREATE INDEX "sterilizations_out_of_order_device_customer_received_ts_id_idx" ON "sterilizations" USING btree ("device_id","customer_id","received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "sterilizations"."arrived_out_of_order";
--> statement-breakpoint
-- Rebuilds the progress and gaps of one (device, owner) pair, or of every pair when both are null, from
-- the stored records (the flags stay as they are: they record arrival order, which the rows cannot tell
-- again). Used by the backfill below, the seed (after its bulk load) and the rare delete or key change.
CREATE FUNCTION "device_progress_rebuild"(p_device integer, p_customer integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "device_progress"
    WHERE (p_device IS NULL OR ("device_id" = p_device AND "customer_id" = p_customer));
  DELETE FROM "device_progress_gaps"
    WHERE (p_device IS NULL OR ("device_id" = p_device AND "customer_id" = p_customer));
  INSERT INTO "device_progress_gaps" ("device_id", "customer_id", "first_missing", "last_missing")
    SELECT "device_id", "customer_id", "progressive_id" + 1, "next_id" - 1
    FROM (
      SELECT "device_id", "customer_id", "progressive_id",
        lead("progressive_id") OVER (PARTITION BY "device_id", "customer_id" ORDER BY "progressive_id") AS "next_id"
      FROM "sterilizations"
      WHERE (p_device IS NULL OR ("device_id" = p_device AND "customer_id" = p_customer))
    ) t
    WHERE "next_id" > "progressive_id" + 1;
  INSERT INTO "device_progress" ("device_id", "customer_id", "min_progressive_id", "max_progressive_id",
      "missing_count", "out_of_order_count")
    SELECT s."device_id", s."customer_id", min(s."progressive_id"), max(s."progressive_id"),
      -- Everything between the lowest and highest id that is not a stored record is missing.
      max(s."progressive_id")::bigint - min(s."progressive_id") + 1 - count(*),
      count(*) FILTER (WHERE s."arrived_out_of_order")::integer
    FROM "sterilizations" s
    WHERE (p_device IS NULL OR (s."device_id" = p_device AND s."customer_id" = p_customer))
    GROUP BY s."device_id", s."customer_id";
END;
$$;
--> statement-breakpoint
-- Flags, from the ids' order (the order records were stored in), every record stored after a higher
-- progressive id of its device and owner. For rows written without the trigger: the backfill below and
-- the seed's bulk load.
CREATE FUNCTION "sterilizations_flag_late_arrivals"() RETURNS void LANGUAGE sql AS $$
  UPDATE "sterilizations" s SET "arrived_out_of_order" = true
  FROM (
    SELECT "id", "progressive_id",
      max("progressive_id") OVER (PARTITION BY "device_id", "customer_id" ORDER BY "id"
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS "highest_before"
    FROM "sterilizations"
  ) t
  WHERE t."id" = s."id" AND t."highest_before" > t."progressive_id" AND NOT s."arrived_out_of_order";
$$;
--> statement-breakpoint
-- One stored record moves its pair's sequence on. Every path takes the pair's device_progress row lock
-- first (the fast UPDATE, the INSERT's conflict wait or SELECT … FOR UPDATE), so two requests of one
-- device and owner are counted one after the other, and each statement after the lock reads what the
-- previous holder committed (READ COMMITTED gives every statement of this function a new snapshot).
-- The usual record, the next id, costs one UPDATE. A writer that loads in bulk (the seed) sets
-- uvtrace.deferred_progress for its transaction and rebuilds once at the end.
CREATE FUNCTION "device_progress_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p integer := NEW."progressive_id";
  lowest integer;
  highest integer;
  gap_first integer;
  gap_last integer;
BEGIN
  IF current_setting('uvtrace.deferred_progress', true) = 'on' THEN
    RETURN NULL;
  END IF;
  UPDATE "device_progress" SET "max_progressive_id" = p
    WHERE "device_id" = NEW."device_id" AND "customer_id" = NEW."customer_id" AND "max_progressive_id" = p - 1;
  IF FOUND THEN
    RETURN NULL;
  END IF;
  INSERT INTO "device_progress" ("device_id", "customer_id", "min_progressive_id", "max_progressive_id")
    VALUES (NEW."device_id", NEW."customer_id", p, p)
    ON CONFLICT ("device_id", "customer_id") DO NOTHING;
  IF FOUND THEN
    RETURN NULL;
  END IF;
  SELECT "min_progressive_id", "max_progressive_id" INTO lowest, highest FROM "device_progress"
    WHERE "device_id" = NEW."device_id" AND "customer_id" = NEW."customer_id" FOR UPDATE;
  IF p > highest THEN
    IF p > highest + 1 THEN
      INSERT INTO "device_progress_gaps" ("device_id", "customer_id", "first_missing", "last_missing")
        VALUES (NEW."device_id", NEW."customer_id", highest + 1, p - 1);
    END IF;
    UPDATE "device_progress" SET "max_progressive_id" = p, "missing_count" = "missing_count" + (p - highest - 1)
      WHERE "device_id" = NEW."device_id" AND "customer_id" = NEW."customer_id";
    RETURN NULL;
  END IF;
  -- Lower than an id already stored: late, whether it fills a gap or extends the sequence downwards.
  IF p < lowest THEN
    IF p < lowest - 1 THEN
      INSERT INTO "device_progress_gaps" ("device_id", "customer_id", "first_missing", "last_missing")
        VALUES (NEW."device_id", NEW."customer_id", p + 1, lowest - 1);
    END IF;
    UPDATE "device_progress" SET "min_progressive_id" = p, "missing_count" = "missing_count" + (lowest - p - 1),
        "out_of_order_count" = "out_of_order_count" + 1
      WHERE "device_id" = NEW."device_id" AND "customer_id" = NEW."customer_id";
  ELSE
    SELECT "first_missing", "last_missing" INTO gap_first, gap_last FROM "device_progress_gaps"
      WHERE "device_id" = NEW."device_id" AND "customer_id" = NEW."customer_id" AND "first_missing" <= p
      ORDER BY "first_missing" DESC LIMIT 1;
    -- p is not stored (the unique index says so) and lies between the lowest and highest id, so a gap
    -- holds it: shrink or split that range. Should the tables have drifted (rows written with the
    -- trigger deferred and never rebuilt), the pair is rebuilt from its records instead of refusing it.
    IF gap_first IS NULL OR gap_last < p THEN
      UPDATE "sterilizations" SET "arrived_out_of_order" = true WHERE "id" = NEW."id";
      PERFORM "device_progress_rebuild"(NEW."device_id", NEW."customer_id");
      RETURN NULL;
    END IF;
    DELETE FROM "device_progress_gaps"
      WHERE "device_id" = NEW."device_id" AND "customer_id" = NEW."customer_id" AND "first_missing" = gap_first;
    IF gap_first < p THEN
      INSERT INTO "device_progress_gaps" ("device_id", "customer_id", "first_missing", "last_missing")
        VALUES (NEW."device_id", NEW."customer_id", gap_first, p - 1);
    END IF;
    IF p < gap_last THEN
      INSERT INTO "device_progress_gaps" ("device_id", "customer_id", "first_missing", "last_missing")
        VALUES (NEW."device_id", NEW."customer_id", p + 1, gap_last);
    END IF;
    UPDATE "device_progress" SET "missing_count" = "missing_count" - 1,
        "out_of_order_count" = "out_of_order_count" + 1
      WHERE "device_id" = NEW."device_id" AND "customer_id" = NEW."customer_id";
  END IF;
  -- Only late records pay for this second write of their row.
  UPDATE "sterilizations" SET "arrived_out_of_order" = true WHERE "id" = NEW."id";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_progress_insert" AFTER INSERT ON "sterilizations"
  FOR EACH ROW EXECUTE FUNCTION "device_progress_follow"();
--> statement-breakpoint
-- Nothing in the product deletes records or changes their device, owner or progressive id; a console or
-- a test that does gets its pairs rebuilt, so the tables never drift from the records.
CREATE FUNCTION "device_progress_rebuild_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "device_progress_rebuild"(OLD."device_id", OLD."customer_id");
  IF TG_OP = 'UPDATE' THEN
    PERFORM "device_progress_rebuild"(NEW."device_id", NEW."customer_id");
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "device_progress_rebuild_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pair record;
BEGIN
  FOR pair IN SELECT DISTINCT "device_id", "customer_id" FROM "deleted_rows" LOOP
    PERFORM "device_progress_rebuild"(pair."device_id", pair."customer_id");
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_progress_update" AFTER UPDATE OF "device_id", "customer_id", "progressive_id"
  ON "sterilizations" FOR EACH ROW
  WHEN (OLD."device_id" IS DISTINCT FROM NEW."device_id" OR OLD."customer_id" IS DISTINCT FROM NEW."customer_id"
    OR OLD."progressive_id" IS DISTINCT FROM NEW."progressive_id")
  EXECUTE FUNCTION "device_progress_rebuild_changed"();
--> statement-breakpoint
CREATE TRIGGER "sterilizations_progress_delete" AFTER DELETE ON "sterilizations"
  REFERENCING OLD TABLE AS "deleted_rows" FOR EACH STATEMENT EXECUTE FUNCTION "device_progress_rebuild_deleted"();
--> statement-breakpoint
CREATE FUNCTION "device_progress_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "device_progress", "device_progress_gaps";
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "sterilizations_progress_truncate" AFTER TRUNCATE ON "sterilizations"
  FOR EACH STATEMENT EXECUTE FUNCTION "device_progress_truncated"();
--> statement-breakpoint
-- Records stored before this migration: arrival order is the order of their ids.
SELECT "sterilizations_flag_late_arrivals"();
--> statement-breakpoint
SELECT "device_progress_rebuild"(NULL, NULL);
