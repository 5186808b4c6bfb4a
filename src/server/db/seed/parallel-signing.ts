/**
 * RS256 signing is most of a large seed's token phase (about 0.7 ms a token, 200,000 tokens at 10M
 * records), and it ran on one core while the other mostly waited for COPY. Here a worker thread signs
 * half of each batch of tokens while this thread signs the other half; the tokens come out in the
 * groups' order, byte for byte what TokenSigner.sign gives (PKCS#1 v1.5 is deterministic).
 */
import { Worker } from 'node:worker_threads';
import { rs256, type SeedToken, type TokenSigner, type UnsignedToken } from './device-tokens.ts';
import type { SigningAnswer, SigningJob } from './signing-worker.ts';
import type { HistoryRow } from './sterilization-history.ts';

/** Tokens signed a batch at a time: enough to keep the worker busy, few enough to stream. */
const BATCH_TOKENS = 256;

function* batches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Each group with its signed token, in the groups' order. */
export async function* signedInParallel(
  groups: Iterable<HistoryRow[]>,
  signer: TokenSigner,
): AsyncGenerator<{ group: HistoryRow[]; token: SeedToken }> {
  const worker = new Worker(new URL('./signing-worker.ts', import.meta.url));
  const answers = new Map<number, (answer: SigningAnswer) => void>();
  let failure: Error | undefined;
  worker.on('message', (answer: SigningAnswer) => answers.get(answer.batch)?.(answer));
  worker.on('error', (error) => {
    failure = error;
    for (const settle of answers.values()) settle({ batch: -1, signatures: [] });
  });
  try {
    let number = 0;
    for (const batch of batches(groups, BATCH_TOKENS)) {
      const unsigned = batch.map((group) => signer.prepare(group));
      // The worker takes the first half; this thread signs the second meanwhile.
      const split = Math.floor(unsigned.length / 2);
      const theirs = unsigned.slice(0, split);
      const job: SigningJob = {
        batch: number,
        inputs: theirs.map((token) => token.input),
        pems: theirs.map((token) => token.privateKeyPem),
      };
      const answered = new Promise<SigningAnswer>((settle) => answers.set(job.batch, settle));
      worker.postMessage(job);
      const ours = unsigned.slice(split).map((token: UnsignedToken) => rs256(token.input, token.key));
      const answer = await answered;
      answers.delete(job.batch);
      if (failure) throw failure;
      const signatures = [...answer.signatures, ...ours];
      for (const [index, group] of batch.entries())
        yield { group, token: signer.complete(unsigned[index]!, signatures[index]!) };
      number++;
    }
  } finally {
    await worker.terminate();
  }
}
