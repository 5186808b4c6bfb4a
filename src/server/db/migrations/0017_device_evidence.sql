CREATE TABLE "device_key_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"slot" smallint NOT NULL,
	"action" text NOT NULL,
	"public_key" text NOT NULL,
	"thumbprint" text NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"actor_user_id" integer,
	"reason" text,
	"device_serial" varchar(8) NOT NULL,
	"blockchain_data_block_id" integer,
	"merkle_proof" text[],
	CONSTRAINT "device_key_events_slot_chk" CHECK ("device_key_events"."slot" in (1, 2)),
	CONSTRAINT "device_key_events_action_chk" CHECK ("device_key_events"."action" in ('registered', 'replaced', 'removed', 'revoked')),
	CONSTRAINT "device_key_events_thumbprint_chk" CHECK ("device_key_events"."thumbprint" ~ '^[A-Za-z0-9_-]{43}$')
);
--> statement-breakpoint
CREATE TABLE "device_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"key_event_id" integer NOT NULL,
	"jws" text NOT NULL,
	"sha256" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_tokens_sha256_chk" CHECK ("device_tokens"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "key_event_1" integer;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "key_event_2" integer;--> statement-breakpoint
ALTER TABLE "sterilizations" ADD COLUMN "cycle_ts" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sterilizations" ADD COLUMN "clock_suspect" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sterilizations" ADD COLUMN "token_id" bigint;--> statement-breakpoint
ALTER TABLE "sterilizations" ADD COLUMN "token_position" smallint;--> statement-breakpoint
ALTER TABLE "device_key_events" ADD CONSTRAINT "device_key_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_key_events" ADD CONSTRAINT "device_key_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_key_events" ADD CONSTRAINT "device_key_events_blockchain_data_block_id_blockchain_data_blocks_id_fk" FOREIGN KEY ("blockchain_data_block_id") REFERENCES "public"."blockchain_data_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_tokens" ADD CONSTRAINT "device_tokens_key_event_id_device_key_events_id_fk" FOREIGN KEY ("key_event_id") REFERENCES "public"."device_key_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_key_events_device_slot_idx" ON "device_key_events" USING btree ("device_id","slot","id");--> statement-breakpoint
CREATE INDEX "device_key_events_waiting_idx" ON "device_key_events" USING btree ("id") WHERE "device_key_events"."blockchain_data_block_id" is null;--> statement-breakpoint
CREATE INDEX "device_key_events_thumbprint_idx" ON "device_key_events" USING btree ("thumbprint");--> statement-breakpoint
CREATE INDEX "device_tokens_device_id_idx" ON "device_tokens" USING btree ("device_id","id");--> statement-breakpoint
ALTER TABLE "sterilizations" ADD CONSTRAINT "sterilizations_token_id_device_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."device_tokens"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- What devices signed and the history of their keys are evidence: never changed, never deleted
-- (docs/integrity.md, "What the device signed"). Only a table owner who disables these triggers can.
CREATE FUNCTION "evidence_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
-- A key event's own columns never change; only the anchor worker's (its block and proof) are written later.
CREATE FUNCTION "device_key_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND (NEW."id", NEW."device_id", NEW."slot", NEW."action", NEW."public_key", NEW."thumbprint",
          NEW."effective_at", NEW."actor_user_id", NEW."reason", NEW."device_serial")
         IS NOT DISTINCT FROM
         (OLD."id", OLD."device_id", OLD."slot", OLD."action", OLD."public_key", OLD."thumbprint",
          OLD."effective_at", OLD."actor_user_id", OLD."reason", OLD."device_serial") THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "device_key_events_append_only" BEFORE UPDATE OR DELETE ON "device_key_events"
  FOR EACH ROW EXECUTE FUNCTION "device_key_events_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "device_key_events_no_truncate" BEFORE TRUNCATE ON "device_key_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "evidence_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "device_tokens_append_only" BEFORE UPDATE OR DELETE ON "device_tokens"
  FOR EACH ROW EXECUTE FUNCTION "evidence_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "device_tokens_no_truncate" BEFORE TRUNCATE ON "device_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION "evidence_refuse_change"();
--> statement-breakpoint
-- A token is stored only while the key that verified it is still in its slot. Ingestion checks the
-- signature before it writes; a key change committed in between (it locks the device's row, as the
-- write does) is seen here, and the token is refused rather than stored under a key no longer in force.
CREATE FUNCTION "device_tokens_key_in_force"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "devices" d WHERE d."id" = NEW."device_id"
                 AND NEW."key_event_id" IN (d."key_event_1", d."key_event_2")) THEN
    RAISE EXCEPTION 'device_tokens: key event % is not in force for device %', NEW."key_event_id", NEW."device_id"
      USING ERRCODE = 'invalid_authorization_specification';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "device_tokens_key_in_force" BEFORE INSERT ON "device_tokens"
  FOR EACH ROW EXECUTE FUNCTION "device_tokens_key_in_force"();
--> statement-breakpoint
-- A record's own values are what its device signed: once stored they never change, and a record is never
-- deleted. Only what the server adds later may be written: its block, proof and hashing version (the
-- anchor worker), its lot status (certificates) and whether it arrived out of order (the gap trigger).
CREATE FUNCTION "sterilizations_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND (NEW."id", NEW."device_id", NEW."customer_id", NEW."received_ts", NEW."progressive_id",
          NEW."supplied_energy", NEW."nominal_time", NEW."effective_time", NEW."residual_lamp_life",
          NEW."status_code", NEW."latitude", NEW."longitude", NEW."consumables_lot", NEW."lot_progressive_id",
          NEW."notes", NEW."cycle_ts", NEW."clock_suspect", NEW."token_id", NEW."token_position")
         IS NOT DISTINCT FROM
         (OLD."id", OLD."device_id", OLD."customer_id", OLD."received_ts", OLD."progressive_id",
          OLD."supplied_energy", OLD."nominal_time", OLD."effective_time", OLD."residual_lamp_life",
          OLD."status_code", OLD."latitude", OLD."longitude", OLD."consumables_lot", OLD."lot_progressive_id",
          OLD."notes", OLD."cycle_ts", OLD."clock_suspect", OLD."token_id", OLD."token_position") THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'sterilizations: a record''s values are immutable: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
-- Only an update naming one of these columns runs the check: the anchor worker's and the certificates'
-- updates of many records at once cost nothing more.
CREATE TRIGGER "sterilizations_immutable" BEFORE UPDATE OF "id", "device_id", "customer_id", "received_ts",
  "progressive_id", "supplied_energy", "nominal_time", "effective_time", "residual_lamp_life", "status_code",
  "latitude", "longitude", "consumables_lot", "lot_progressive_id", "notes", "cycle_ts", "clock_suspect",
  "token_id", "token_position" OR DELETE ON "sterilizations"
  FOR EACH ROW EXECUTE FUNCTION "sterilizations_refuse_change"();
