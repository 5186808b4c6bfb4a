/**
 * Second factors (docs/accounts.md §5): an authenticator app (TOTP, RFC 6238: 30 s steps, 6 digits,
 * SHA-1, as every app expects) and ten one-time recovery codes, and the step tokens that a right
 * password yields while a second factor is still owed. Shared by sign-in and the profile (auth), a
 * SUPER_ADMIN's reset (users) and a report signature (reports).
 */
import { createHash, randomInt } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Db, Tx } from '../db/client.ts';
import { loginSteps, recoveryCodes, totpFactors } from '../db/schema.ts';
import { hashToken, newToken } from './tokens.ts';

/** What the authenticator app shows next to the account. */
export const TOTP_ISSUER = 'uvtrace';
/** A code of the step before or after the current one still counts (a clock 30 s off, a slow typist). */
const TOTP_TOLERANCE_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** Step tokens live this long: time to open the app and type a code, not to wait for a better guess. */
export const STEP_TOKEN_MINUTES = 5;
/** Wrong codes a step token takes before it is spent (the sign-in starts over with the password). */
const STEP_TOKEN_MAX_FAILURES = 5;
/** Wrong codes an account takes before each further one doubles its wait (as LOGIN_MAX_FAILURES). */
const ACCOUNT_MAX_FAILURES = 5;
const ACCOUNT_MAX_DELAY_SECONDS = 900;

export type StepPurpose = 'second_factor' | 'enrol';
export type FactorUsed = 'totp' | 'recovery_code' | 'passkey';

export interface SecondFactorState {
  totp: boolean;
  recoveryCodesLeft: number;
  /** Passkeys and security keys (docs/accounts.md §6): each is a second factor too. */
  passkeys: number;
}

export async function secondFactorState(db: Db | Tx, userId: number): Promise<SecondFactorState> {
  const result = await db.execute<{ totp: boolean; codes: number; passkeys: number }>(sql`
    select exists (select 1 from totp_factors where user_id = ${userId} and secret is not null) as totp,
      (select count(*)::int from recovery_codes where user_id = ${userId} and used_at is null) as codes,
      (select count(*)::int from passkeys where user_id = ${userId}) as passkeys`);
  const row = result.rows[0];
  return {
    totp: Boolean(row?.totp),
    recoveryCodesLeft: Number(row?.codes ?? 0),
    passkeys: Number(row?.passkeys ?? 0),
  };
}

/** Whether the user has a second factor in force: an app, or at least one passkey. */
export const hasSecondFactor = (state: SecondFactorState) => state.totp || state.passkeys > 0;

// ---- enrolment -------------------------------------------------------------------------------------

export interface TotpEnrolment {
  secret: string;
  otpauth_uri: string;
  qr_code: string;
}

/**
 * A new secret, pending until a first code confirms it (the app is set up right). It replaces an
 * earlier pending one; a confirmed one stays in force until the new one is confirmed.
 */
export async function startTotpEnrolment(
  db: Db | Tx,
  user: { id: number; email: string },
): Promise<TotpEnrolment> {
  const secret = generateSecret();
  await db.execute(sql`
    insert into totp_factors (user_id, pending_secret) values (${user.id}, ${secret})
    on conflict (user_id) do update set pending_secret = excluded.pending_secret`);
  const otpauth = generateURI({ issuer: TOTP_ISSUER, label: user.email, secret });
  return {
    secret,
    otpauth_uri: otpauth,
    qr_code: await QRCode.toDataURL(otpauth, { margin: 1, width: 240 }),
  };
}

const isTotpCode = (code: string) => /^\d{6}$/.test(code);

async function matchingTimeStep(secret: string, code: string, afterTimeStep: number | null) {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/**
 * Confirms the pending app with a code of it: it becomes the one in force (replacing an earlier one),
 * with ten new recovery codes, answered once here and stored hashed. Null: no pending app, or a wrong code.
 */
export async function confirmTotpEnrolment(tx: Tx, userId: number, code: string): Promise<string[] | null> {
  const [row] = await tx.select().from(totpFactors).where(eq(totpFactors.userId, userId)).for('update');
  const pending = row?.pendingSecret ?? undefined;
  if (!pending || !isTotpCode(code)) return null;
  const timeStep = await matchingTimeStep(pending, code, null);
  if (timeStep === null) return null;
  await tx
    .update(totpFactors)
    .set({
      secret: pending,
      pendingSecret: null,
      confirmedAt: sql`now()`,
      lastTimeStep: timeStep,
      failures: 0,
      blockedUntil: null,
    })
    .where(eq(totpFactors.userId, userId));
  return replaceRecoveryCodes(tx, userId);
}

// ---- recovery codes --------------------------------------------------------------------------------

/** Letters and digits a person does not confuse (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** 16 characters of a 31-letter alphabet: 79 bits, beyond any offline guessing of its sha256. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 16 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
  return [0, 4, 8, 12].map((start) => chars.slice(start, start + 4).join('')).join('-');
}

/** Typed however: spaces, dashes and letter case do not matter. */
const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');
const recoveryCodeHash = (code: string) =>
  createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
const looksLikeRecoveryCode = (code: string) => /^[A-Z0-9]{16}$/.test(normaliseRecoveryCode(code));

export async function replaceRecoveryCodes(tx: Tx, userId: number): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: recoveryCodeHash(code) })));
  return codes;
}

// ---- checking a code -------------------------------------------------------------------------------

export type CodeCheck =
  | { ok: true; factor: FactorUsed }
  | { ok: false; retryAfterSeconds: number }
  | { ok: false; wrong: true };

/**
 * Checks a code of the user's second factor: a code of the app in force (each time step once: a code
 * seen is refused again, within its window too) or an unused recovery code (used up by this). The
 * account's wrong codes double its wait past ACCOUNT_MAX_FAILURES, from any address.
 */
export async function checkSecondFactorCode(db: Db, userId: number, rawCode: string): Promise<CodeCheck> {
  const code = rawCode.trim();
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(totpFactors).where(eq(totpFactors.userId, userId)).for('update');
    if (row?.blockedUntil && row.blockedUntil.getTime() > Date.now())
      return { ok: false, retryAfterSeconds: Math.ceil((row.blockedUntil.getTime() - Date.now()) / 1000) };
    let factor: FactorUsed | null = null;
    const active = row?.secret ?? undefined;
    if (active && isTotpCode(code)) {
      const timeStep = await matchingTimeStep(active, code, row?.lastTimeStep ?? null);
      if (timeStep !== null) {
        await tx.update(totpFactors).set({ lastTimeStep: timeStep }).where(eq(totpFactors.userId, userId));
        factor = 'totp';
      }
    } else if (looksLikeRecoveryCode(code)) {
      const used = await tx
        .update(recoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(recoveryCodes.userId, userId),
            eq(recoveryCodes.codeHash, recoveryCodeHash(code)),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      if (used.length > 0) factor = 'recovery_code';
    }
    if (row && factor) {
      await tx
        .update(totpFactors)
        .set({ failures: 0, blockedUntil: null })
        .where(eq(totpFactors.userId, userId));
    } else if (row) {
      const failures = row.failures + 1;
      const wait =
        failures < ACCOUNT_MAX_FAILURES
          ? 0
          : Math.min(ACCOUNT_MAX_DELAY_SECONDS, 2 ** Math.min(failures - ACCOUNT_MAX_FAILURES, 20));
      await tx
        .update(totpFactors)
        .set({ failures, blockedUntil: sql`now() + make_interval(secs => ${wait})` })
        .where(eq(totpFactors.userId, userId));
    }
    return factor ? { ok: true, factor } : { ok: false, wrong: true };
  });
}

/** Removes the app and the recovery codes (a removal, or a SUPER_ADMIN's reset); answers whether there were any. */
export async function removeSecondFactors(tx: Tx, userId: number): Promise<boolean> {
  const apps = await tx
    .delete(totpFactors)
    .where(eq(totpFactors.userId, userId))
    .returning({ id: totpFactors.userId });
  const codes = await tx
    .delete(recoveryCodes)
    .where(eq(recoveryCodes.userId, userId))
    .returning({ id: recoveryCodes.id });
  return apps.length + codes.length > 0;
}

// ---- step tokens -----------------------------------------------------------------------------------

export async function createStepToken(db: Db | Tx, userId: number, purpose: StepPurpose): Promise<string> {
  const token = newToken();
  await db.insert(loginSteps).values({
    userId,
    tokenHash: hashToken(token),
    purpose,
    expiresAt: sql`now() + make_interval(mins => ${STEP_TOKEN_MINUTES})`,
  });
  // Spent and expired steps are of no further use to anyone.
  await db.delete(loginSteps).where(lt(loginSteps.expiresAt, sql`now() - interval '1 day'`));
  return token;
}

/** The user a step token stands for, when it is live and of this purpose. */
export async function stepTokenUser(db: Db | Tx, token: string, purpose: StepPurpose) {
  const [step] = await db
    .select({ id: loginSteps.id, userId: loginSteps.userId })
    .from(loginSteps)
    .where(
      and(
        eq(loginSteps.tokenHash, hashToken(token)),
        eq(loginSteps.purpose, purpose),
        isNull(loginSteps.usedAt),
        gt(loginSteps.expiresAt, sql`now()`),
        lt(loginSteps.failures, STEP_TOKEN_MAX_FAILURES),
      ),
    )
    .limit(1);
  return step;
}

/** Spends a step token; answers false when another request spent it first. */
export async function spendStepToken(tx: Tx | Db, stepId: number): Promise<boolean> {
  const spent = await tx
    .update(loginSteps)
    .set({ usedAt: sql`now()` })
    .where(and(eq(loginSteps.id, stepId), isNull(loginSteps.usedAt)))
    .returning({ id: loginSteps.id });
  return spent.length > 0;
}

export async function stepTokenFailed(db: Db, stepId: number): Promise<void> {
  await db
    .update(loginSteps)
    .set({ failures: sql`${loginSteps.failures} + 1` })
    .where(and(eq(loginSteps.id, stepId), isNotNull(loginSteps.id)));
}
