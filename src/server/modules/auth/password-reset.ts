/**
 * "Forgot your password?" (docs/accounts.md §4): a one-time link by e-mail, valid 30 minutes, whose
 * token exists only in the mail that carries it. A request makes a row; the token is made when the mail
 * is sent and only its sha256 is stored, so the database, the outbox view and the log never hold a
 * usable link. Completing the reset sets the password (the rules of §1), uses the link up, and ends
 * every session of the user.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { passwordResets, users } from '#server/db/schema.ts';
import { hashToken, newToken } from '#server/security/tokens.ts';
import type { MailLanguage } from '#shared/notifications/index.ts';
import { type ClaimedMail, passwordResetMail, queueMail, resetLinkPlaceholder } from '../mail/index.ts';

export const RESET_VALID_MINUTES = 30;
/**
 * Reset mails one account gets within RESET_VALID_MINUTES, whatever the addresses asking: beyond them a
 * request answers the same and sends nothing, so nobody can flood someone's mailbox.
 */
export const RESET_MAILS_PER_ACCOUNT = 3;
/**
 * Every request is answered no sooner than this after it arrived, known address or not: the work for a
 * known one (two rows and an audit entry) must not tell it apart by its time.
 */
export const RESET_ANSWER_MS = 300;

/** The reset page with the token in the fragment: a browser never sends it to a server or a Referer. */
export function resetLink(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/reset-password#token=${token}`;
}

/** The account a request names, when it may reset its password (not a disabled one). */
export async function resettableUser(db: Db, email: string) {
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      language: users.language,
    })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deletedAt)))
    .limit(1);
  return user;
}

/** Queues a reset mail for this user unless they had RESET_MAILS_PER_ACCOUNT already; answers whether it did. */
export async function queueReset(
  tx: Tx,
  user: { id: number; email: string; language: string },
  requestedFrom: string,
): Promise<boolean> {
  // The user's row locked: two requests at once count one after the other.
  await tx.execute(sql`select id from users where id = ${user.id} for update`);
  const recent = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from password_resets
    where user_id = ${user.id} and created_at > now() - make_interval(mins => ${RESET_VALID_MINUTES})`);
  if (Number(recent.rows[0]?.n ?? 0) >= RESET_MAILS_PER_ACCOUNT) return false;
  const [reset] = await tx
    .insert(passwordResets)
    .values({
      userId: user.id,
      expiresAt: sql`now() + make_interval(mins => ${RESET_VALID_MINUTES})`,
      requestedFrom,
    })
    .returning({ id: passwordResets.id });
  if (!reset) throw new Error('password reset row not written');
  const language: MailLanguage = user.language === 'it' ? 'it' : 'en';
  await queueMail(tx, {
    dedupeKey: `password-reset:${reset.id}`,
    userId: user.id,
    to: user.email,
    language,
    ...passwordResetMail(language, RESET_VALID_MINUTES),
    passwordResetId: reset.id,
  });
  return true;
}

/**
 * For the mail sender: the reset mail's text with a fresh link in place of its placeholder, the
 * token's hash stored on the reset; null when the reset was used or expired meanwhile. A retried send
 * makes a new token (the earlier one never reached anyone).
 */
export function resetMailText(db: Db, appUrl: string) {
  return async (mail: ClaimedMail): Promise<string | null> => {
    if (mail.password_reset_id === null) return mail.body_text;
    const token = newToken();
    const updated = await db
      .update(passwordResets)
      .set({ tokenHash: hashToken(token) })
      .where(
        and(
          eq(passwordResets.id, mail.password_reset_id),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: passwordResets.id });
    if (updated.length === 0) return null;
    const language: MailLanguage = mail.language === 'it' ? 'it' : 'en';
    return mail.body_text.replace(resetLinkPlaceholder(language), resetLink(appUrl, token));
  };
}

/** The reset a link names, when it still works: not used, not expired, of a user not disabled. */
export async function usableReset(db: Db, token: string) {
  const [reset] = await db
    .select({
      id: passwordResets.id,
      userId: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
    })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(
      and(
        eq(passwordResets.tokenHash, hashToken(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  return reset;
}

/**
 * Uses the link up, and every other link of the user with it; answers false when another request
 * used it first (the link is single use even when sent twice at once).
 */
export async function useReset(tx: Tx, resetId: number, userId: number): Promise<boolean> {
  const used = await tx
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.id, resetId), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  if (used.length === 0) return false;
  await tx
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  return true;
}
