/**
 * A real SMTP server for the end-to-end suite: scripts/e2e-server.ts starts it and points the server's
 * SMTP_URL at it; every mail it receives is written to `<E2E_DATA_DIR>/mail/<n>.eml`, which specs read
 * with `caughtMails()`. Test-only, like devnet-control.ts.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { e2eDataDir } from './devnet-control.ts';

const mailDir = path.join(e2eDataDir, 'mail');

/** Starts the catcher on a free local port; answers the SMTP_URL that reaches it. */
export async function startMailCatcher(): Promise<string> {
  mkdirSync(mailDir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
        writeFileSync(
          path.join(mailDir, `${String(count).padStart(5, '0')}.eml`),
          `X-Envelope-To: ${to}\r\n${Buffer.concat(chunks).toString('utf8')}`,
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

export interface CaughtMail {
  to: string;
  subject: string;
  language: string | null;
  raw: string;
}

/** Every mail caught so far, oldest first. */
export function caughtMails(): CaughtMail[] {
  let files: string[];
  try {
    files = readdirSync(mailDir)
      .filter((name) => name.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((name) => {
    const raw = readFileSync(path.join(mailDir, name), 'utf8');
    // Long header lines are folded (RFC 5322 §2.2.3): a line break before white space continues the field.
    const headers = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n(?=[ \t])/g, '') ?? '';
    const header = (field: string) => new RegExp(`^${field}: (.*)$`, 'mi').exec(headers)?.[1]?.trim() ?? null;
    return {
      to: header('X-Envelope-To') ?? '',
      subject: header('Subject') ?? '',
      language: header('Content-Language'),
      raw,
    };
  });
}
