/**
 * Sessions in the API tests: minted straight into the database as a login would make them (so a test
 * can spend one per request without argon2 or the login throttle), or a real password login through
 * the API from a client address of its own.
 */
import { hashToken, newToken } from '../security/tokens.ts';
import { userIdOf } from './fixtures.ts';
import { DEMO_PASSWORD, formBody, type TestApp, uniqueClientAddress } from './test-app.ts';

/** A new session of this user, as a login would make it; returns the bearer token. */
export async function mintSession(t: TestApp, userId: number): Promise<string> {
  const token = newToken();
  await t.database.pool.query(
    `insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 hour')`,
    [userId, hashToken(token)],
  );
  return token;
}

/** A new session of the user with this e-mail, minted as mintSession does. */
export async function mintSessionOf(t: TestApp, email: string): Promise<string> {
  return mintSession(t, await userIdOf(t, email));
}

/** POST /auth/login from `from` (by default an address of its own); answers the response as it came. */
export function passwordLogin(
  t: Pick<TestApp, 'app'>,
  email: string,
  password = DEMO_PASSWORD,
  from = uniqueClientAddress(),
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'x-forwarded-for': from },
    ...formBody({ email, password }),
  });
}
