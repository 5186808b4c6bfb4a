/**
 * Shared by the account specs (sessions, password reset, second factors; docs/accounts.md): a fresh user
 * of their own made through the API, so the demo logins stay as seeded, and an axe check that finds no
 * WCAG 2.1 AA violation at all on the screen's region.
 */
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { apiCreateUser, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';

export const ACCOUNT_PASSWORD = 'e2e-account-password-1';

/** A clinic user of Clinica San Marco (customer 2 in the demo data) with ACCOUNT_PASSWORD. */
export async function freshAccount(
  request: APIRequestContext,
  name = `E2E Account ${unique()}`,
): Promise<{ id: number; customerId: number; name: string; email: string }> {
  const token = await apiToken(request);
  const customers = await request.get('/api/v1/customers/full-list', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const clinic = ((await customers.json()) as { data: { id: number; name: string }[] }).data.find(
    (customer) => customer.name === 'Clinica San Marco',
  );
  expect(clinic, 'the demo clinic').toBeDefined();
  const email = `e2e-account-${unique()}@example.com`;
  const created = await apiCreateUser(request, token, clinic?.id ?? 0, {
    name,
    email,
    password: ACCOUNT_PASSWORD,
  });
  return { id: created.id, customerId: clinic?.id ?? 0, name, email };
}

/** No axe violation of WCAG 2.1 AA, of any impact, inside `selector`. */
export async function expectNoAxeViolations(page: Page, selector: string, screen: string): Promise<void> {
  // Transitions half done would be judged by their passing colours.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
    ),
    `axe on ${screen}`,
  ).toEqual([]);
}
