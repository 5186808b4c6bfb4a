/** Where to go after login: the `redirect` search value when it is a path of this site, else the dashboard. */
export function safeRedirect(redirect: unknown): string {
  if (typeof redirect !== 'string' || !redirect.startsWith('/')) return '/';
  // "//host" and "/\host" are protocol-relative URLs to another origin.
  if (redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  try {
    const base = 'http://same.origin';
    const url = new URL(redirect, base);
    if (url.origin !== base) return '/';
    if (url.pathname === '/login') return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}
