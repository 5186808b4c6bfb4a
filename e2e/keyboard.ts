/** Keyboard-only helpers for the specs that check what a keyboard user reaches and reads. */
import { expect, type Locator, type Page } from '@playwright/test';

/** Presses `key` until `target` has the focus; failing means a trap or an element out of the tab order. */
export async function pressUntilFocused(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${key} never reached ${target}`);
}

/**
 * A disabled action's reason (components/disabled-reason): the span around the button takes the
 * focus from the keyboard, shows the reason in a tooltip and has it as its accessible description.
 */
export async function expectDisabledReason(page: Page, button: Locator, reason: string): Promise<void> {
  await expect(button).toBeDisabled();
  const holder = button.locator('xpath=ancestor::span[@tabindex="0"][1]');
  await pressUntilFocused(page, holder);
  await expect(page.getByRole('tooltip')).toHaveText(reason);
  await expect(holder).toHaveAccessibleDescription(reason);
}
