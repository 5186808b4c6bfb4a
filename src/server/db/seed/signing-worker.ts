/**
 * The worker half of seed/parallel-signing.ts: signs the signing inputs it is sent with the keys named
 * by their PEM, and answers the signatures in the same order.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { rs256 } from './device-tokens.ts';

export interface SigningJob {
  batch: number;
  inputs: string[];
  pems: string[];
}

export interface SigningAnswer {
  batch: number;
  signatures: Uint8Array[];
}

const keys = new Map<string, KeyObject>();

parentPort?.on('message', (job: SigningJob) => {
  const signatures = job.inputs.map((input, index) => {
    const pem = job.pems[index]!;
    let key = keys.get(pem);
    if (!key) {
      key = createPrivateKey(pem);
      keys.set(pem, key);
    }
    return new Uint8Array(rs256(input, key));
  });
  const answer: SigningAnswer = { batch: job.batch, signatures };
  parentPort?.postMessage(answer);
});
