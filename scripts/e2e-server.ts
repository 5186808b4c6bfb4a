/**
 * The server the end-to-end suite runs against: the production build on a fresh embedded database with
 * demo data, the devnet's mining controllable by the specs (e2e/devnet-control.ts; test-only), and a
 * real SMTP server catching the alert e-mails (e2e/mail-catcher.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/main.ts';
import { connectChain } from '#server/modules/integrity/chain.ts';
import { e2eDataDir, serveDevnetControl } from '../e2e/devnet-control.ts';
import { startMailCatcher } from '../e2e/mail-catcher.ts';

// E2E_DATA_DIR lets two suites run side by side (each with its own port, build and database).
rmSync(e2eDataDir, { recursive: true, force: true });
mkdirSync(e2eDataDir, { recursive: true });
process.env.DATA_DIR = e2eDataDir;
// Alert e-mails go to a real SMTP server whose catch the specs read (e2e/mail-catcher.ts).
process.env.SMTP_URL = await startMailCatcher();
process.env.MAIL_INTERVAL_SECONDS ??= '1';
// The chain is connected here, not by the app, so that this script holds the devnet's handle.
const chain = await connectChain(loadConfig().chain);
if (!chain.embedded) throw new Error('the end-to-end server runs on the embedded devnet (no CHAIN_RPC_URL)');
await serveDevnetControl((call) => chain.request(call as never));
await startServer({ chain });
