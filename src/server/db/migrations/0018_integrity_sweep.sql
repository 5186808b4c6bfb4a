CREATE TABLE "integrity_sweep_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"cycle_started_at" timestamp with time zone,
	"phase" text DEFAULT 'blocks' NOT NULL,
	"cursor" bigint DEFAULT 0 NOT NULL,
	"audit_hash" text,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"mismatch_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_completed_at" timestamp with time zone,
	"last_summary" jsonb,
	CONSTRAINT "integrity_sweep_state_one_row_chk" CHECK ("integrity_sweep_state"."id" = 1)
);
