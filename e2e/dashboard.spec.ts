import { expect, type Page, test } from '@playwright/test';
import { DEMO, loginAs, logout } from './fixtures.ts';

const COUNT_CARDS = ['Customers', 'Users', 'Sterilizing baths', 'Sterilizing neck plugs'] as const;

type BatchOnPage = {
  label: string | null;
  level: string | undefined;
  values: string[];
  paragraphs: string[];
  border: string;
};

/** Reads every batch card at once: its name, data-level, the dl values and the count / quantity lines. */
async function readBatchCards(page: Page): Promise<BatchOnPage[]> {
  const cards = page.getByRole('article', { name: /^Batch / });
  await expect(cards.first()).toBeVisible();
  return cards.evaluateAll((elements) =>
    elements.map((element) => ({
      label: element.getAttribute('aria-label'),
      level: (element as HTMLElement).dataset.level,
      values: Array.from(element.querySelectorAll('dd'), (dd) => dd.textContent ?? ''),
      paragraphs: Array.from(element.querySelectorAll('p'), (p) => (p.textContent ?? '').trim()),
      border: getComputedStyle(element).borderLeftColor,
    })),
  );
}

/** docs/product.md §2 / §9: green under 80 % of batch_quantity, orange below 100 %, red from 100 %. */
function expectedLevel(count: number, quantity: number): string {
  if (count / quantity < 0.8) return 'ok';
  if (count / quantity < 1) return 'warning';
  return 'danger';
}

function checkBatch(batch: BatchOnPage): { level: string } {
  const [lot, progressive, serial] = batch.values;
  expect(batch.label).toBe(`Batch ${lot} / ${progressive}`);
  expect(lot).toMatch(/\S/);
  expect(progressive).toMatch(/^\d+$/);
  expect(serial).toMatch(/^\S{8}$/);
  const [countText, quantityText] = batch.paragraphs;
  expect(countText, `count of ${batch.label}`).toMatch(/^\d+$/);
  const quantityMatch = /^sterilizations of (\d+)$/.exec(quantityText ?? '');
  expect(quantityMatch, `quantity line of ${batch.label}: ${quantityText}`).not.toBeNull();
  const count = Number(countText);
  const quantity = Number(quantityMatch?.[1]);
  expect(quantity).toBeGreaterThan(0);
  expect(batch.level, `level of ${batch.label} (${count}/${quantity})`).toBe(expectedLevel(count, quantity));
  return { level: batch.level as string };
}

test.describe('dashboard', () => {
  test('staff see the four count cards, the batch section and the legend', async ({ page }) => {
    const name = await loginAs(page, DEMO.super);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${name}` })).toBeVisible();

    const totals = page.getByRole('region', { name: 'Totals' });
    // The four counts and the devices with missing records (e2e/device-gaps.spec.ts).
    await expect(totals.getByRole('region')).toHaveCount(COUNT_CARDS.length + 1);
    for (const label of COUNT_CARDS) {
      const card = totals.getByRole('region', { name: label, exact: true });
      await expect(card).toBeVisible();
      await expect(card).toContainText(/\d/);
    }
    // The demo data has several customers and at least the four demo accounts.
    const countOf = async (label: string) => {
      const text = await totals
        .getByRole('region', { name: label, exact: true })
        .locator('p')
        .last()
        .textContent();
      return Number((text ?? '').replace(/\D/g, ''));
    };
    expect(await countOf('Customers')).toBeGreaterThan(1);
    expect(await countOf('Users')).toBeGreaterThanOrEqual(4);
    expect((await countOf('Sterilizing baths')) + (await countOf('Sterilizing neck plugs'))).toBeGreaterThan(
      0,
    );

    await expect(page.getByRole('heading', { level: 2, name: 'Disposable sleeve batches' })).toBeVisible();
    const legend = page.getByRole('list', { name: 'Legend' });
    await expect(legend.getByRole('listitem')).toHaveText(['Under 80% used', 'From 80% used', 'Exhausted']);
  });

  test('every batch card is coloured by its own usage, and all three levels appear', async ({ page }) => {
    await loginAs(page, DEMO.super);
    const batches = await readBatchCards(page);
    expect(batches.length).toBeGreaterThan(2);

    const levels = new Set(batches.map((batch) => checkBatch(batch).level));
    expect([...levels].sort()).toEqual(['danger', 'ok', 'warning']);

    // Each card's colour is the colour of its legend entry (green / orange / red).
    const legendItems = page.getByRole('list', { name: 'Legend' }).getByRole('listitem');
    const legendColors = await legendItems.evaluateAll((items) =>
      items.map((item) => getComputedStyle(item).backgroundColor),
    );
    const colorOf: Record<string, string | undefined> = {
      ok: legendColors[0],
      warning: legendColors[1],
      danger: legendColors[2],
    };
    expect(new Set(legendColors).size).toBe(3);
    for (const batch of batches) {
      expect(batch.border, `colour of ${batch.label} (${batch.level})`).toBe(colorOf[batch.level ?? '']);
    }
  });

  test('a customer user has no customers or users cards; its batch cards are coloured too', async ({
    page,
  }) => {
    await loginAs(page, DEMO.customer);
    const totals = page.getByRole('region', { name: 'Totals' });
    await expect(totals.getByRole('region', { name: 'Sterilizing baths', exact: true })).toBeVisible();
    await expect(totals.getByRole('region', { name: 'Sterilizing neck plugs', exact: true })).toBeVisible();
    await expect(
      totals.getByRole('region', { name: 'Devices with missing records', exact: true }),
    ).toBeVisible();
    await expect(totals.getByRole('region')).toHaveCount(3);
    await expect(page.getByRole('region', { name: 'Customers', exact: true })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Users', exact: true })).toHaveCount(0);
    // What anchoring costs is the maker's business: no card, and the server would refuse anyway.
    await expect(page.getByTestId('dashboard-chain-costs')).toHaveCount(0);

    const own = await readBatchCards(page);
    for (const batch of own) checkBatch(batch);
    await expect(page.getByRole('list', { name: 'Legend' })).toBeVisible();
  });

  test('SUPER_ADMIN and ADMIN see what anchoring costs per month and per record; customer care does not', async ({
    page,
  }) => {
    const admin = await loginAs(page, DEMO.admin);
    const costs = page.getByRole('region', { name: /^Anchoring costs/ });
    await expect(costs).toBeVisible();
    await expect(costs.getByRole('columnheader')).toHaveText([
      'Month',
      'Blocks',
      'Transactions',
      'Records',
      'Gas used',
      'Fee (ETH)',
      'Per record (gwei)',
    ]);
    // Six months and their total; the demo's records are anchored this month on the devnet.
    await expect(costs.locator('tbody tr')).toHaveCount(7);
    await expect(async () => {
      await page.reload();
      await expect(costs.locator('tbody tr[data-month="total"] td').first()).not.toHaveText('0', {
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000 });

    await logout(page, admin);
    await loginAs(page, DEMO.care);
    await expect(page.getByRole('region', { name: 'Totals' })).toBeVisible();
    await expect(page.getByTestId('dashboard-chain-costs')).toHaveCount(0);
  });
});
