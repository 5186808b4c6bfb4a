/**
 * What the device signed for a record (GET /sterilizations/evidence/{id}): the token kept byte for
 * byte, the record's position in it, and the key that verified it, with the key's thumbprint and when
 * it came into force. On the details card and in the verification window.
 */
import { Alert, Box, Button, Collapse, Stack, Typography } from '@mui/material';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formatDateTime } from '#client/lib/dates.ts';
import { CopyButton } from './copy-button';

export const recordEvidenceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['sterilizations', 'evidence', id],
    queryFn: () => unwrap(api.GET('/sterilizations/evidence/{id}', { params: { path: { id } } })),
    // What a device signed never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });

const mono = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  overflowWrap: 'anywhere',
  fontSize: 12,
} as const;

function Row({ labelId, children, testId }: { labelId: string; children: React.ReactNode; testId?: string }) {
  const intl = useIntl();
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {intl.formatMessage({ id: labelId })}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0 }} data-testid={testId}>
        {children}
      </Typography>
    </Box>
  );
}

export function RecordEvidence({ recordId }: { recordId: number }) {
  const intl = useIntl();
  const evidence = useQuery(recordEvidenceQueryOptions(recordId));
  const [showToken, setShowToken] = useState(false);
  if (evidence.isPending) return null;
  if (evidence.isError) {
    return (
      <Alert severity="error" sx={{ py: 0 }}>
        {intl.formatMessage({ id: 'evidence.failed' })}
      </Alert>
    );
  }
  const { token, key_event: key, position } = evidence.data;
  if (!token || !key) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="record-evidence-none">
        {intl.formatMessage({ id: 'evidence.none' })}
      </Typography>
    );
  }
  return (
    <Box component="section" data-testid="record-evidence">
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {intl.formatMessage({ id: 'evidence.title' })}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        <Row labelId="evidence.token_sha256" testId="evidence-sha256">
          <Box component="span" sx={mono}>
            {token.sha256}
          </Box>
        </Row>
        <Row labelId="evidence.position">{intl.formatNumber((position ?? 0) + 1)}</Row>
        <Row labelId="evidence.issued_at">{formatDateTime(token.issued_at)}</Row>
        <Row labelId="evidence.key" testId="evidence-key">
          {intl.formatMessage(
            { id: 'evidence.key_slot' },
            { slot: key.slot, since: formatDateTime(key.effective_at) },
          )}
          {!key.in_force && ` · ${intl.formatMessage({ id: 'evidence.key_not_in_force' })}`}
        </Row>
        <Row labelId="evidence.thumbprint" testId="evidence-thumbprint">
          <Box component="span" sx={mono}>
            {key.thumbprint}
          </Box>
        </Row>
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
        <Button size="small" onClick={() => setShowToken((shown) => !shown)} aria-expanded={showToken}>
          {intl.formatMessage({ id: showToken ? 'evidence.hide_token' : 'evidence.show_token' })}
        </Button>
        <CopyButton text={token.jws} labelId="evidence.copy_token" />
      </Stack>
      <Collapse in={showToken}>
        <Box sx={{ ...mono, p: 1, bgcolor: 'action.hover', borderRadius: 1 }} data-testid="evidence-jws">
          {token.jws}
        </Box>
      </Collapse>
    </Box>
  );
}
