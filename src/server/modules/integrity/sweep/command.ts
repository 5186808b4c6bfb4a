/**
 * `npm run integrity:sweep` (scripts/integrity-sweep.ts): a whole sweep, printed line by line, and its
 * exit code — 0 when nothing mismatched, 1 when anything did (docs/backups.md, "Reading the sweep").
 *
 * A server running on DATA_DIR runs it (it holds the embedded database, and the embedded devnet lives
 * in its memory). Otherwise the database is opened here (DATABASE_URL, or the embedded one under
 * DATA_DIR), with the chain of CHAIN_RPC_URL; without one, MINED and FINAL blocks of the embedded devnet
 * cannot be compared with a chain and are counted as not compared.
 */
import { createInterface } from 'node:readline';
import type { AppConfig } from '#server/config.ts';
import { askServer } from '#server/control/socket.ts';
import { embeddedDataDir, openDatabase } from '#server/db/client.ts';
import { connectChain } from '../chain.ts';
import { mismatchLine, runIntegritySweep, summaryLines } from './run.ts';

type Print = (line: string) => void;

async function throughServer(dataDir: string, print: Print): Promise<boolean | null> {
  const answer = await askServer(dataDir, '/integrity-sweep');
  if (!answer) return null;
  print(`the server running on ${dataDir} sweeps…`);
  let passed: boolean | null = null;
  for await (const text of createInterface({ input: answer, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!text.trim()) continue;
    const message = JSON.parse(text) as {
      line?: string;
      summary?: { mismatches: number; lines: string[] };
      error?: string;
    };
    if (message.error) throw new Error(message.error);
    if (message.line) print(message.line);
    if (message.summary) {
      for (const line of message.summary.lines) print(line);
      passed = message.summary.mismatches === 0;
    }
  }
  if (passed === null) throw new Error('the server ended its answer before the summary');
  return passed;
}

async function here(
  config: Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'chain'>,
  print: Print,
): Promise<boolean> {
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: embeddedDataDir(config.dataDir) },
  );
  try {
    const chain = config.chain.rpcUrl ? await connectChain(config.chain) : null;
    if (!chain) {
      print(
        'no CHAIN_RPC_URL and no server running on DATA_DIR: MINED and FINAL blocks are not compared with the chain (the embedded devnet lives only in a running server)',
      );
    }
    const summary = await runIntegritySweep({ db: database.db, chain }, (mismatch) =>
      print(mismatchLine(mismatch)),
    );
    for (const line of summaryLines(summary)) print(line);
    return summary.mismatches === 0;
  } finally {
    await database.close();
  }
}

export async function integritySweepCommand(
  config: Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'chain'>,
  print: Print,
): Promise<number> {
  const passed = (await throughServer(config.dataDir, print)) ?? (await here(config, print));
  return passed ? 0 : 1;
}
