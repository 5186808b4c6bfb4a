/**
 * Drains the outbox in the background: claims due mails, sends each through the transport, records the
 * outcome. It never runs inside a request, so a slow or absent SMTP server cannot slow ingestion.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { type ClaimedMail, claimDueMails, markAbandoned, markFailed, markSent } from './outbox.ts';
import type { MailTransport } from './transport.ts';

export interface MailSenderOptions {
  db: Db;
  transport: MailTransport;
  from: string;
  maxAttempts: number;
  intervalSeconds: number;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /**
   * The text to send for a mail whose stored body lacks a secret only its addressee may see (a password
   * reset link, docs/accounts.md §4): made now, never stored. Null: the mail can no longer be sent.
   */
  completeText?: (mail: ClaimedMail) => Promise<string | null>;
}

const BATCH = 20;
/** Longer than any one SMTP exchange takes, so a live sender never sees its own row claimed again. */
const LEASE_SECONDS = 120;

export function messageIdFor(mail: Pick<ClaimedMail, 'id'>, fromAddress: string): string {
  const domain = /@([^>\s]+)/.exec(fromAddress)?.[1] ?? 'uvtrace.invalid';
  return `<outbox-${mail.id}@${domain}>`;
}

export function createMailSender(options: MailSenderOptions) {
  const { db, transport, log } = options;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;

  /** Sends every mail due now; returns how many were sent. */
  async function drainOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await claimDueMails(db, {
        limit: BATCH,
        leaseSeconds: LEASE_SECONDS,
        maxAttempts: options.maxAttempts,
      });
      if (batch.length === 0) return sent;
      for (const mail of batch) {
        const messageId = messageIdFor(mail, options.from);
        try {
          const text =
            mail.password_reset_id !== null && options.completeText
              ? await options.completeText(mail)
              : mail.body_text;
          if (text === null) {
            await markAbandoned(db, mail.id, 'the link expired before it could be sent', options.maxAttempts);
            continue;
          }
          const result = await transport.send({
            from: options.from,
            to: mail.to_address,
            subject: mail.subject,
            text,
            messageId,
            language: mail.language,
          });
          await markSent(db, mail.id, result.messageId);
          sent += 1;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log.warn({ mailId: mail.id, attempt: mail.attempts, err: message }, 'mail not sent, will retry');
          await markFailed(db, mail.id, mail.attempts, message);
        }
      }
      if (stopped) return sent;
    }
  }

  function tick() {
    if (stopped || running) return;
    running = drainOnce()
      .catch((error) => {
        log.error({ err: error }, 'mail sender pass failed');
        return 0;
      })
      .finally(() => {
        running = null;
      });
  }

  return {
    drainOnce,
    start() {
      stopped = false;
      timer ??= setInterval(tick, options.intervalSeconds * 1000);
      timer.unref();
      tick();
    },
    /** Runs a pass now (after a mail was queued) instead of waiting for the interval. */
    nudge: tick,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      transport.close();
    },
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
