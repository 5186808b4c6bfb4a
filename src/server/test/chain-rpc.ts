/** The app's public /chain-rpc as a viem transport: what a browser on the app would read the chain with. */
import { custom } from 'viem';
import type { TestApp } from './test-app.ts';

export function chainRpcTransport(t: Pick<TestApp, 'app'>) {
  return custom({
    async request({ method, params }) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/chain-rpc',
        payload: { jsonrpc: '2.0', id: 1, method, params },
      });
      const body = response.json();
      if (body.error) throw new Error(body.error.message);
      return body.result;
    },
  });
}
