/**
 * A proof bundle on the /verify page: every record checked in a Web Worker
 * (./bundle-worker.ts, the shared verifier), a progress bar meanwhile, then the counts and every record
 * that failed with the checks it failed and why. Records not anchored are listed apart: there is
 * nothing on chain to check them against.
 */
import { Alert, Box, LinearProgress, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { BundleVerification as Result } from '#shared/integrity/bundle.ts';
import type { BundleJob, BundleWorkerMessage } from './bundle-worker';
import { checkExplanation } from './check-item';

type State =
  | { state: 'running'; done: number; total: number }
  | { state: 'done'; result: Result }
  | { state: 'error'; message: string };

const mono = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  overflowWrap: 'anywhere',
} as const;

export function BundleVerification({
  text,
  count,
  network,
  rpcUrl,
  run,
}: {
  /** The bundle file's text (parsed again in the worker). */
  text: string;
  count: number;
  network: string;
  rpcUrl: string;
  run: number;
}) {
  const intl = useIntl();
  const [status, setStatus] = useState<State>({ state: 'running', done: 0, total: count });

  // biome-ignore lint/correctness/useExhaustiveDependencies: `run` asks the node again with the same URL
  useEffect(() => {
    setStatus({ state: 'running', done: 0, total: count });
    const worker = new Worker(new URL('./bundle-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<BundleWorkerMessage>) => {
      const message = event.data;
      if (message.type === 'progress') {
        setStatus({ state: 'running', done: message.done, total: message.total });
      } else if (message.type === 'done') {
        setStatus({ state: 'done', result: message.result });
        worker.terminate();
      } else {
        setStatus({ state: 'error', message: message.message });
        worker.terminate();
      }
    };
    worker.onerror = (event) => {
      setStatus({ state: 'error', message: event.message });
      worker.terminate();
    };
    worker.postMessage({ text, rpcUrl } satisfies BundleJob);
    return () => worker.terminate();
  }, [text, count, rpcUrl, run]);

  return (
    <Stack spacing={1.5} component="section" aria-labelledby="verify-bundle-title">
      <Typography id="verify-bundle-title" variant="h6" component="h2">
        {intl.formatMessage({ id: 'verify.bundle.title' }, { count })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={mono}>
        {intl.formatMessage({ id: 'verify.checks.node' }, { rpc: rpcUrl })}
      </Typography>
      {status.state === 'running' && (
        <Box data-testid="verify-bundle-verdict" data-verdict="verifying">
          <LinearProgress
            variant="determinate"
            value={status.total === 0 ? 0 : (100 * status.done) / status.total}
            aria-label={intl.formatMessage({ id: 'verify.bundle.progress.label' })}
          />
          <Typography variant="body2" role="status" sx={{ mt: 0.5 }}>
            {intl.formatMessage({ id: 'verify.bundle.progress' }, { done: status.done, total: status.total })}
          </Typography>
        </Box>
      )}
      {status.state === 'error' && (
        <Alert severity="error" data-testid="verify-bundle-verdict" data-verdict="failed">
          {intl.formatMessage({ id: 'verify.bundle.error' }, { message: status.message })}
        </Alert>
      )}
      {status.state === 'done' && <Outcome result={status.result} network={network} />}
    </Stack>
  );
}

function Outcome({ result, network }: { result: Result; network: string }) {
  const intl = useIntl();
  return (
    <>
      <Alert
        severity={result.ok ? (result.notAnchored.length > 0 ? 'warning' : 'success') : 'error'}
        data-testid="verify-bundle-verdict"
        data-verdict={result.ok ? 'success' : 'failed'}
        aria-live="polite"
      >
        {intl.formatMessage(
          { id: result.ok ? 'verify.bundle.verdict.success' : 'verify.bundle.verdict.failed' },
          {
            passed: result.passed,
            failed: result.failed.length,
            notAnchored: result.notAnchored.length,
            total: result.total,
            transactions: result.transactions,
          },
        )}
      </Alert>
      {result.failed.length > 0 && (
        <Box component="section" aria-labelledby="verify-bundle-failed-title">
          <Typography id="verify-bundle-failed-title" variant="subtitle1" component="h3">
            {intl.formatMessage({ id: 'verify.bundle.failed.title' }, { count: result.failed.length })}
          </Typography>
          {/* Plain elements: a bundle can list thousands of failures. */}
          <Box component="ol" sx={{ pl: 3, my: 0.5, '& li': { mb: 1 }, '& ul': { pl: 2, m: 0 } }}>
            {result.failed.map((failure) => (
              <li key={failure.index} data-testid="verify-bundle-failure" data-record-id={failure.id ?? ''}>
                <strong>
                  {failure.index < 0
                    ? intl.formatMessage({ id: 'verify.bundle.failed.file' })
                    : intl.formatMessage(
                        { id: 'verify.bundle.failed.record' },
                        { id: failure.id ?? '—', position: failure.index + 1 },
                      )}
                </strong>
                <ul>
                  {failure.checks.map((check) => (
                    <li key={check.name} data-check={check.name}>
                      {intl.formatMessage({ id: `verify.check.${check.name}` })}:{' '}
                      <Box component="span" sx={mono}>
                        {checkExplanation(intl, check, network)}
                      </Box>
                      {check.name === 'leaf' && check.values?.fields
                        ? ` ${intl.formatMessage(
                            { id: 'verify.check.leaf.fields' },
                            {
                              fields: check.values.fields
                                .split(', ')
                                .map((field) => intl.formatMessage({ id: `integrity.field.${field}` }))
                                .join(', '),
                            },
                          )}`
                        : null}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </Box>
        </Box>
      )}
      {result.notAnchored.length > 0 && (
        <Box component="section" aria-labelledby="verify-bundle-unanchored-title">
          <Typography id="verify-bundle-unanchored-title" variant="subtitle1" component="h3">
            {intl.formatMessage(
              { id: 'verify.bundle.unanchored.title' },
              { count: result.notAnchored.length },
            )}
          </Typography>
          <Box component="ul" sx={{ pl: 3, my: 0.5 }}>
            {result.notAnchored.map((record) => (
              <li key={record.index} data-testid="verify-bundle-unanchored">
                {intl.formatMessage(
                  { id: 'verify.bundle.unanchored.record' },
                  {
                    id: record.id ?? '—',
                    position: record.index + 1,
                    status: intl.formatMessage({
                      id: `verify.bundle.status.${record.status}`,
                      defaultMessage: record.status,
                    }),
                  },
                )}
              </li>
            ))}
          </Box>
        </Box>
      )}
    </>
  );
}
