import { generateKeyPairSync } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { initialState, nextRecord, signRecords } from '../scripts/simulate-devices.ts';
import { apiCreateCustomer, apiIngest, apiProductIdOfType, apiToken } from './api.ts';
import { unique } from './customers-helpers.ts';
import { DEMO, loginAs } from './fixtures.ts';
import { caughtMails } from './mail-catcher.ts';

/*
 * End to end: a failed cycle a device posts raises an alert that the open app shows at once
 * (the bell's count goes up without a reload), and an e-mail in the
 * recipient's language reaches the suite's real SMTP server. The super admin opts in to failed-cycle
 * mails in Italian for the test and is put back to the default at the end.
 */
test('a failed cycle raises the bell count without a reload and is mailed in the recipient language', async ({
  page,
}) => {
  const token = await apiToken(page.request);
  const auth = { Authorization: `Bearer ${token}` };
  const settings = '/api/v1/auth/me/notifications';
  const optedIn = await page.request.put(settings, {
    headers: auth,
    data: { language: 'it', email_alert_kinds: ['failed_cycle'] },
  });
  expect(optedIn.status(), await optedIn.text()).toBe(200);
  try {
    const tag = unique().toUpperCase();
    const customer = await apiCreateCustomer(page.request, token, `E2E Mail ${tag}`);
    const serial = `ML${tag.slice(-6)}`;
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const device = await page.request.post(`/api/v1/customers/${customer.id}/devices`, {
      headers: auth,
      multipart: {
        device_serial: serial,
        label: `Mail ${tag}`,
        product_id: await apiProductIdOfType(page.request, token, 1),
        public_key: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
    });
    expect(device.status(), await device.text()).toBe(201);

    await loginAs(page, DEMO.super);
    const bell = page.getByRole('banner').getByRole('button', { name: /unread alert/ });
    await expect(bell).toBeVisible();
    const before = Number((await bell.getAttribute('aria-label'))?.match(/\d+/)?.[0] ?? 0);

    const next = nextRecord(
      serial,
      initialState(Math.random, Math.floor(Date.now() / 1000)),
      Math.random,
      new Date(),
    );
    const signed = await signRecords(serial, [{ ...next.record, status_code: 2 }], keys.privateKey);
    await apiIngest(page.request, signed);

    // The failed cycle (and whatever else the simulated record raises, e.g. a worn lamp) arrives live.
    await expect
      .poll(async () => Number((await bell.getAttribute('aria-label'))?.match(/\d+/)?.[0] ?? 0))
      .toBeGreaterThan(before);

    await expect
      .poll(() => caughtMails().filter((mail) => mail.to === DEMO.super && mail.subject.includes(serial)), {
        timeout: 20_000,
      })
      .toHaveLength(1);
    const [mail] = caughtMails().filter((m) => m.to === DEMO.super && m.subject.includes(serial));
    expect(mail?.language).toBe('it');
    expect(mail?.subject).toBe(`[uvtrace] Ciclo di sterilizzazione fallito sul dispositivo ${serial}`);
  } finally {
    await page.request.put(settings, { headers: auth, data: { language: 'en', email_alert_kinds: null } });
  }
});
