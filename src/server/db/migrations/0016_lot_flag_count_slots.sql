ALTER TABLE "lot_flag_counts" ADD COLUMN "slot" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lot_flag_counts" DROP CONSTRAINT "lot_flag_counts_pk";
--> statement-breakpoint
ALTER TABLE "lot_flag_counts" ADD CONSTRAINT "lot_flag_counts_pk" PRIMARY KEY("customer_id","consumables_lot","slot");--> statement-breakpoint
-- Migration 0015's remedy for the per-owner flagged-lot figures. A clinic's devices share the
-- sleeve lots it buys, and until a lot's certificate is uploaded every record of it is flagged: each
-- added one to the owner's single row of that lot, so the clinic's writes queued for that row as they
-- did for the daily counts. Now up to 8 rows per owner and lot, a connection counting in the row of its
-- backend pid modulo 8; a lot's figure is the sum of its rows (the dashboard and the lot alerts' sweep
-- sum them), and a row alone may go negative after a move.
CREATE OR REPLACE FUNCTION "lot_flag_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  own_slot smallint := (pg_backend_pid() % 8)::smallint;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."lot_status" IN ('uncertified', 'expired') THEN
    INSERT INTO "lot_flag_counts" ("customer_id", "consumables_lot", "slot", "flagged")
      VALUES (OLD."customer_id", OLD."consumables_lot", own_slot, -1)
    ON CONFLICT ("customer_id", "consumables_lot", "slot")
      DO UPDATE SET "flagged" = "lot_flag_counts"."flagged" - 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."lot_status" IN ('uncertified', 'expired') AND (TG_OP = 'UPDATE'
      OR current_setting('uvtrace.deferred_ok_counts', true) IS DISTINCT FROM 'on') THEN
    INSERT INTO "lot_flag_counts" ("customer_id", "consumables_lot", "slot", "flagged")
      VALUES (NEW."customer_id", NEW."consumables_lot", own_slot, 1)
    ON CONFLICT ("customer_id", "consumables_lot", "slot")
      DO UPDATE SET "flagged" = "lot_flag_counts"."flagged" + 1;
  END IF;
  RETURN NULL;
END;
$$;
