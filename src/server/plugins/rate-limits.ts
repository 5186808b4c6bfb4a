/**
 * Request rate limits per client address (as TRUST_PROXY resolves it) on the two public calls that
 * cost the most: login (each attempt is an argon2 verify) and device ingestion (a signature check and
 * a write). Counted in memory per process, like the login throttle; a limited request gets 429
 * `too_many_requests` in the envelope, with Retry-After. The limits come from the configuration.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/envelope.ts';

export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new ApiError(429, 'too_many_requests'),
  });
}

/** Route config for at most `perMinute` requests per client address and minute; none when 0. */
export function rateLimitPerMinute(perMinute: number): Record<string, unknown> {
  return perMinute > 0 ? { rateLimit: { max: perMinute, timeWindow: 60_000 } } : {};
}
