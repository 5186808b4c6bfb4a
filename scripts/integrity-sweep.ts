// Re-proves everything stored (docs/backups.md, "The integrity sweep"): `npm run integrity:sweep`.
// Every record's leaf and every block's Merkle root recomputed from the stored records, every stored
// proof, every MINED block's root against its anchor transaction, every device token's signature and
// the records' values against what the device signed, every signed report's PDF, the audit trail's
// hash chain. Prints each mismatch (record, block, token, field), then a summary; exits 1 on any
// mismatch, 2 when it could not run. Through the running server when one runs on DATA_DIR.
import { loadConfig } from '#server/config.ts';
import { integritySweepCommand } from '#server/modules/integrity/sweep/command.ts';

try {
  process.exitCode = await integritySweepCommand(loadConfig(), (line) => console.log(line));
} catch (error) {
  console.error(`integrity sweep could not run: ${(error as Error).message}`);
  process.exitCode = 2;
}
