/**
 * A session's user agent as its owner recognises it in the profile's session list (docs/accounts.md
 * §3): "Firefox 128" on "Windows 10". Parsed with bowser; a header it cannot read shows as unknown.
 * Only a hint for the user: a client can send any user agent it likes.
 */
import Bowser from 'bowser';

export interface UserAgentSummary {
  browser: string | null;
  os: string | null;
}

const majorVersion = (version: string | undefined) => version?.split('.')[0] || undefined;

export function summariseUserAgent(userAgent: string | null): UserAgentSummary {
  if (!userAgent?.trim()) return { browser: null, os: null };
  const { browser, os } = Bowser.parse(userAgent);
  const browserText = browser.name
    ? [browser.name, majorVersion(browser.version)].filter(Boolean).join(' ')
    : null;
  const osText = os.name
    ? [os.name, os.versionName ?? majorVersion(os.version)].filter(Boolean).join(' ')
    : null;
  return { browser: browserText, os: osText };
}
