/** Accounts of their own for the account-security tests (docs/accounts.md), so no demo login changes. */

import { makeCustomer, unique } from './fixtures.ts';
import { DEMO, DEMO_PASSWORD, type TestApp } from './test-app.ts';

export interface TestAccount {
  userId: number;
  customerId: number;
  name: string;
  email: string;
  role: string;
}

/** A user who logs in with DEMO_PASSWORD (the demo users' hash, so no argon2 run per user). */
export async function makeAccount(
  t: TestApp,
  options: { role?: 'SUPER_ADMIN' | 'ADMIN' | 'CUSTOMER_CARE' | 'CUSTOMER'; name?: string } = {},
): Promise<TestAccount> {
  const role = options.role ?? 'CUSTOMER';
  const tag = unique().toLowerCase();
  const name = options.name ?? `Account ${tag}`;
  const email = `account-${tag}@example.com`;
  const customerId = role === 'CUSTOMER' ? await makeCustomer(t) : 1;
  const result = await t.database.pool.query(
    `insert into users (customer_id, name, email, password_hash, role)
     values ($1, $2, $3, (select password_hash from users where email = $4), $5) returning id`,
    [customerId, name, email, DEMO.super, role],
  );
  return { userId: Number(result.rows[0].id), customerId, name, email, role };
}

export { DEMO_PASSWORD };

/** A usable reset link for this user, as if its mail had just been sent; answers the token. */
export async function makeResetLink(t: TestApp, userId: number): Promise<string> {
  const { newToken, hashToken } = await import('../security/tokens.ts');
  const token = newToken();
  await t.database.pool.query(
    `insert into password_resets (user_id, token_hash, expires_at) values ($1, $2, now() + interval '30 minutes')`,
    [userId, hashToken(token)],
  );
  return token;
}
