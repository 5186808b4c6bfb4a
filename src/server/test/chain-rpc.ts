/**
 * The app's public read-only /chain-rpc as the tests call it: a JSON-RPC body, a post of one call or a
 * batch through inject(), and a viem transport over it (what a browser on the app reads the chain with).
 */
import { custom } from 'viem';
import type { TestApp } from './test-app.ts';

/** What can take a request: an app, or a peer app on the same database. */
type Injecting = Pick<TestApp['app'], 'inject'>;

/** The JSON-RPC body of one call. */
export const rpcCall = (method: string, params: unknown = [], id = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

/** Posts one call or a batch to /chain-rpc; answers the response as it came. */
export function postChainRpc(app: Injecting, payload: object, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/chain-rpc', headers, payload });
}

export function chainRpcTransport(t: Pick<TestApp, 'app'>) {
  return custom({
    async request({ method, params }) {
      const response = await postChainRpc(t.app, rpcCall(method, params));
      const body = response.json();
      if (body.error) throw new Error(body.error.message);
      return body.result;
    },
  });
}
