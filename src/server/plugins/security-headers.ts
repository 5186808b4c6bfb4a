/**
 * Strict security headers on every answer (API, SPA, files, errors — including the ones Fastify's
 * router gives before any hook runs, see app.ts frameworkErrors): no inline scripts or handlers, no
 * plugins, no framing, no sniffing, a strict referrer policy. Written out here rather than through
 * helmet so that one function sets them on both paths.
 *
 * HSTS only on answers to HTTPS requests: a browser ignores it over plain HTTP, and sending it from a
 * plain-HTTP deployment would pin a host name that has no TLS. A request is HTTPS when it came over TLS,
 * directly or through a trusted proxy's X-Forwarded-Proto (TRUST_PROXY); HTTPS=true sends it always.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

export type ApplySecurityHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

export function securityHeaders(options: {
  https: boolean;
  extraConnectSources: string[];
}): ApplySecurityHeaders {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    // MUI (emotion) injects its styles at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...options.extraConnectSources].join(' '),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "worker-src 'self' blob:",
  ].join(';');
  const headers: Record<string, string> = {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    // The old XSS auditor did more harm than good; CSP replaces it.
    'x-xss-protection': '0',
  };
  return (request, reply) => {
    reply.headers(headers);
    if (options.https || request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
  };
}

export function registerSecurityHeaders(app: FastifyInstance, apply: ApplySecurityHeaders): void {
  app.addHook('onRequest', async (request, reply) => apply(request, reply));
  // Whatever answers a signed-in caller (JSON, a file, a stream, an error) holds that caller's data: no
  // browser or proxy may keep it, where the next user of a shared computer or a proxy's other clients
  // would find it. An answer that already forbids storing (no-store with more directives) keeps its own.
  app.addHook('onSend', async (request, reply) => {
    if (request.auth && !/\bno-store\b/.test(String(reply.getHeader('cache-control') ?? ''))) {
      reply.header('cache-control', 'no-store');
    }
  });
}
