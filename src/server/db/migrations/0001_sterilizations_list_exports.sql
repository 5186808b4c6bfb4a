CREATE TABLE "export_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"export" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "export_tickets_ticket_hash_uq" UNIQUE("ticket_hash")
);
--> statement-breakpoint
DROP INDEX "sterilizations_device_received_ts_idx";--> statement-breakpoint
DROP INDEX "sterilizations_consumables_lot_idx";--> statement-breakpoint
ALTER TABLE "export_tickets" ADD CONSTRAINT "export_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_tickets_expires_at_idx" ON "export_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sterilizations_device_received_ts_id_idx" ON "sterilizations" USING btree ("device_id","received_ts" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sterilizations_consumables_lot_id_idx" ON "sterilizations" USING btree ("consumables_lot","id");--> statement-breakpoint
CREATE INDEX "sterilizations_device_lot_id_idx" ON "sterilizations" USING btree ("device_id","consumables_lot","id");