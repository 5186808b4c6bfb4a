ALTER TABLE "blockchain_data_blocks" DROP CONSTRAINT "blockchain_data_blocks_status_chk";--> statement-breakpoint
ALTER TABLE "blockchain_data_blocks" ADD COLUMN "mined_block_number" bigint;--> statement-breakpoint
ALTER TABLE "blockchain_data_blocks" ADD COLUMN "mined_block_hash" text;--> statement-breakpoint
ALTER TABLE "blockchain_data_blocks" ADD COLUMN "final_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "blockchain_data_blocks" ADD CONSTRAINT "blockchain_data_blocks_status_chk" CHECK ("blockchain_data_blocks"."status" in ('PENDING', 'SENT', 'MINED', 'FINAL', 'FAILED'));