CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"customer_id" integer,
	"device_id" integer,
	"subject_id" bigint,
	"condition_key" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer,
	"acknowledge_comment" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	"resolution" text,
	"resolve_comment" text,
	"condition_cleared_at" timestamp with time zone,
	CONSTRAINT "alerts_state_chk" CHECK ("alerts"."state" in ('open', 'acknowledged', 'resolved')),
	CONSTRAINT "alerts_resolution_chk" CHECK ("alerts"."resolution" in ('cleared', 'manual'))
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "alert_device_silent_hours" integer;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "alert_lamp_life_threshold" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_condition_unresolved_uq" ON "alerts" USING btree ("condition_key") WHERE "alerts"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_condition_key_idx" ON "alerts" USING btree ("condition_key");--> statement-breakpoint
CREATE INDEX "alerts_raised_at_idx" ON "alerts" USING btree ("raised_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_customer_raised_at_idx" ON "alerts" USING btree ("customer_id","raised_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alerts_device_state_idx" ON "alerts" USING btree ("device_id","state");--> statement-breakpoint
CREATE INDEX "alerts_state_kind_idx" ON "alerts" USING btree ("state","kind");--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_alert_thresholds_chk" CHECK ("customers"."alert_device_silent_hours" > 0 and "customers"."alert_lamp_life_threshold" >= 0);