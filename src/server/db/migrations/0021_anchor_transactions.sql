CREATE TABLE "anchor_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"block_id" integer NOT NULL,
	"hash" text NOT NULL,
	"nonce" integer,
	"gas_limit" bigint,
	"max_fee_per_gas" numeric(78, 0),
	"max_priority_fee_per_gas" numeric(78, 0),
	"raw" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_height" bigint,
	"mined_height" bigint,
	"gas_used" bigint,
	"fee_paid_wei" numeric(78, 0),
	CONSTRAINT "anchor_transactions_hash_chk" CHECK ("anchor_transactions"."hash" ~ '^0x[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "blockchain_data_blocks" ADD COLUMN "gas_used" bigint;--> statement-breakpoint
ALTER TABLE "blockchain_data_blocks" ADD COLUMN "fee_paid_wei" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "anchor_transactions" ADD CONSTRAINT "anchor_transactions_block_id_blockchain_data_blocks_id_fk" FOREIGN KEY ("block_id") REFERENCES "public"."blockchain_data_blocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "anchor_transactions_hash_uq" ON "anchor_transactions" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "anchor_transactions_block_idx" ON "anchor_transactions" USING btree ("block_id","id");--> statement-breakpoint
-- Hand-written: every block's transaction known so far starts its history (its nonce, fees and signed
-- bytes were not kept, so it is followed by its hash alone, as before).
INSERT INTO "anchor_transactions" ("block_id", "hash", "sent_at")
SELECT "id", lower("transaction_hash"), coalesce("sent_at", "created_at") FROM "blockchain_data_blocks"
WHERE "transaction_hash" ~* '^0x[0-9a-f]{64}$'
ON CONFLICT DO NOTHING;
