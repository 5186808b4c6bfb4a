/** A user's authenticator app in the tests: enrolled through the API, codes computed with otplib. */
import { generate, generateSecret } from 'otplib';
import { DEMO_PASSWORD } from './accounts.ts';
import { formBody, type TestApp } from './test-app.ts';

/** A code of the app for a moment `offsetSeconds` from now (a 30 s step apart per 30 seconds). */
export const totpCode = (secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

/** Sets up and confirms an app for the session's user; answers its secret and the recovery codes. */
export async function enrolTotp(
  t: TestApp,
  token: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const start = await t.as(token, {
    method: 'POST',
    url: '/api/v1/auth/me/second-factor/totp',
    ...formBody({ current_password: DEMO_PASSWORD }),
  });
  if (start.statusCode !== 200) throw new Error(`totp setup: ${start.statusCode} ${start.body}`);
  const { secret } = start.json().data as { secret: string };
  const confirm = await t.as(token, {
    method: 'POST',
    url: '/api/v1/auth/me/second-factor/totp/confirm',
    ...formBody({ code: await totpCode(secret) }),
  });
  if (confirm.statusCode !== 200) throw new Error(`totp confirm: ${confirm.statusCode} ${confirm.body}`);
  return { secret, recoveryCodes: confirm.json().data.recovery_codes };
}

/** Gives the user an app in force with a new secret (as a confirmed enrolment would); answers the secret. */
export async function giveTotp(t: TestApp, userId: number): Promise<string> {
  const secret = generateSecret();
  await t.database.pool.query(
    `insert into totp_factors (user_id, secret, confirmed_at) values ($1, $2, now())
     on conflict (user_id) do update set secret = excluded.secret, pending_secret = null, confirmed_at = now(),
       last_time_step = null, failures = 0, blocked_until = null`,
    [userId, secret],
  );
  return secret;
}

/** The user signs in with the password alone again (for cases that need the demo users without a factor). */
export async function withoutSecondFactor(t: TestApp, userId: number): Promise<void> {
  await t.database.pool.query('delete from totp_factors where user_id = $1', [userId]);
  await t.database.pool.query('delete from recovery_codes where user_id = $1', [userId]);
  await t.database.pool.query('delete from passkeys where user_id = $1', [userId]);
}

/** A live step token of this purpose for the user, as a right password would answer it. */
export async function stepTokenFor(
  t: TestApp,
  userId: number,
  purpose: 'second_factor' | 'enrol',
): Promise<string> {
  const { createStepToken } = await import('../security/second-factor.ts');
  return createStepToken(t.database.db, userId, purpose);
}

/** A pending app for the user, as setting one up leaves it; answers its secret. */
export async function pendingTotp(t: TestApp, userId: number, email: string): Promise<string> {
  const { startTotpEnrolment } = await import('../security/second-factor.ts');
  return (await startTotpEnrolment(t.database.db, { id: userId, email })).secret;
}
