CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"blocked_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Tickets live a minute and now need their session: the ones made before this migration are dropped.
DELETE FROM "export_tickets";--> statement-breakpoint
ALTER TABLE "export_tickets" ADD COLUMN "session_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "export_tickets" DROP COLUMN "used_at";--> statement-breakpoint
CREATE INDEX "login_throttle_blocked_until_idx" ON "login_throttle" USING btree ("blocked_until");--> statement-breakpoint
CREATE INDEX "rate_limit_hits_window_ends_at_idx" ON "rate_limit_hits" USING btree ("window_ends_at");--> statement-breakpoint
ALTER TABLE "export_tickets" ADD CONSTRAINT "export_tickets_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_tickets_session_id_idx" ON "export_tickets" USING btree ("session_id");