/**
 * The chain node a verifier asks, from `GET /api/v1/chain`'s `rpc_url` (docs/integrity.md §7.1).
 * The server gives its own read-only proxy as a path (`/chain-rpc`, no host) unless the deployment sets
 * an absolute CHAIN_PUBLIC_RPC_URL: a path is a URL reference relative to the API that gave it, so it
 * is resolved (RFC 3986 §5) against the URL the chain info was read from, not against the page or the
 * verifier's own machine.
 */
export function resolveRpcUrl(rpcUrl: string, chainInfoUrl: string | URL): string {
  return new URL(rpcUrl, chainInfoUrl).href;
}
