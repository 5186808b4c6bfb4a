/**
 * The verification window's chain section: the block's state and network, the anchoring transaction as
 * this browser read it from the chain (decoded), and the root it saved; or why there is none.
 */
import OpenInNew from '@mui/icons-material/OpenInNew';
import { Alert, Box, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import type { Sterilization } from '#shared/api/index.ts';
import type { useAnchorTransaction } from './api/integrity';
import { anchoredValues, explorerTxUrl } from './verification';
import { Field, mono } from './verification-parts';

export function AnchorReading({
  record,
  anchorTx,
}: {
  record: Sterilization;
  anchorTx: ReturnType<typeof useAnchorTransaction>;
}) {
  const intl = useIntl();
  const data = record.blockchain_data;
  const block = data?.blockchain_data_block;
  const txHash = block?.transaction_hash ?? null;
  const transaction = anchorTx.data;
  const anchored = transaction ? anchoredValues(transaction) : null;
  const explorer = explorerTxUrl(block?.network, txHash);
  return (
    <>
      {!data && record.blockchain_enabled === false ? (
        // Such a record is never anchored, so "it requires some time" would be untrue.
        <Alert severity="info" data-testid="integrity-not-enabled">
          <div>{intl.formatMessage({ id: 'integrity.not_enabled' })}</div>
          <div>{intl.formatMessage({ id: 'integrity.not_enabled_detail' })}</div>
        </Alert>
      ) : !data ? (
        <Alert severity="warning">
          <div>{intl.formatMessage({ id: 'integrity.not_sent' })}</div>
          <div>{intl.formatMessage({ id: 'integrity.requires_time' })}</div>
        </Alert>
      ) : (
        <Stack spacing={1.5} component="section" aria-labelledby="integrity-chain-title">
          <Typography id="integrity-chain-title" variant="h6" component="h3">
            {intl.formatMessage({ id: 'integrity.chain.title' })}
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
            <Field labelId="integrity.chain.status" testId="integrity-block-status">
              {/* In the reader's words, with the state's name as the API and the docs give it. */}
              {block?.status &&
                `${intl.formatMessage({ id: `blocks.status.${block.status}` })} (${block.status})`}
            </Field>
            <Field labelId="integrity.chain.network" testId="integrity-network">
              {block?.network ?? '—'}
            </Field>
          </Box>
          <Field labelId="integrity.chain.transaction" testId="integrity-transaction">
            {txHash === null ? (
              '—'
            ) : explorer ? (
              <Link
                href={explorer}
                target="_blank"
                rel="noopener noreferrer"
                sx={{ ...mono, display: 'inline-flex', gap: 0.5 }}
              >
                {txHash}
                <OpenInNew
                  fontSize="inherit"
                  aria-label={intl.formatMessage({ id: 'integrity.chain.explorer' })}
                />
              </Link>
            ) : (
              <Box sx={mono}>{txHash}</Box>
            )}
          </Field>
          {txHash !== null && (
            <Field labelId="integrity.chain.content" testId="integrity-content">
              {anchorTx.isPending ? (
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <CircularProgress size={14} />
                  <span>{intl.formatMessage({ id: 'integrity.chain.reading' })}</span>
                </Stack>
              ) : anchorTx.isError ? (
                <Alert severity="error" sx={{ py: 0 }}>
                  {intl.formatMessage(
                    { id: 'integrity.chain.read_failed' },
                    { message: anchorTx.error.message.split('\n')[0] ?? '' },
                  )}
                </Alert>
              ) : transaction ? (
                <Stack spacing={0.5}>
                  <Box>
                    {intl.formatMessage(
                      { id: 'integrity.chain.function' },
                      { name: transaction.functionName ?? '—' },
                    )}
                  </Box>
                  {transaction.params.map((param) => (
                    <Box key={param.name} sx={mono}>
                      {param.name} ({param.type}): {param.value}
                    </Box>
                  ))}
                  <Typography variant="caption" color="text.secondary">
                    {intl.formatMessage({ id: 'integrity.chain.raw_input' })}
                  </Typography>
                  <Box sx={{ ...mono, fontSize: 12 }}>{transaction.input}</Box>
                </Stack>
              ) : null}
            </Field>
          )}
          <Field labelId="integrity.chain.saved_hash" testId="integrity-saved-hash">
            <Box sx={mono}>{anchored?.root ?? '—'}</Box>
          </Field>
        </Stack>
      )}
    </>
  );
}
