/**
 * docs/product.md §2 "data integrity verification" modal. Left: the record's 14 fields, editable; right: the
 * control string and the block control string computed in this browser (shared integrity module),
 * the anchoring transaction as read from the chain by this browser (GET /chain → rpc_url, viem), and
 * the verdict with the checks behind it. The server's calculateHash is shown as a second opinion only.
 * Default export: the route loads this module lazily.
 */
import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import Restore from '@mui/icons-material/Restore';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Link,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { CycleReportButton } from '#client/components/cycle-report/cycle-report-button.tsx';
import { RecordEvidence, recordEvidenceQueryOptions } from '#client/components/record-evidence.tsx';
import type { Sterilization } from '#shared/api/index.ts';
import { AnchorReading } from './anchor-reading';
import { useAnchorTransaction, useChainInfo, useServerHashes } from './api/integrity';
import { ReceiptActions } from './receipt-actions';
import { RecordFieldsForm } from './record-fields-form';
import {
  type ChainRead,
  type Check,
  changedFields,
  computeHashes,
  formRecord,
  hasFormData,
  hashingVersionOf,
  INTEGRITY_FIELDS,
  type IntegrityField,
  initialForm,
  isAnchored,
  isPristine,
  type Verdict,
  type VerifiableRecord,
  type VerificationForm,
  verification,
  withEvidence,
} from './verification';
import { Field, mono } from './verification-parts';

/** Edits are hashed once typing pauses. */
const DEBOUNCE_MS = 350;

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

const VERDICT_COLOR = {
  verifying: 'info',
  success: 'success',
  failed: 'error',
} as const;

function CheckList({ checks, values }: { checks: Check[]; values: Record<string, string | number> }) {
  const intl = useIntl();
  return (
    <List dense disablePadding aria-label={intl.formatMessage({ id: 'integrity.checks.title' })}>
      {checks.map((check) => (
        <ListItem key={check.id} disableGutters data-check={check.id} data-status={check.status}>
          <ListItemIcon sx={{ minWidth: 32 }}>
            {check.status === 'pass' ? (
              <CheckCircle color="success" fontSize="small" />
            ) : check.status === 'fail' ? (
              <Cancel color="error" fontSize="small" />
            ) : (
              <HourglassEmpty color="disabled" fontSize="small" />
            )}
          </ListItemIcon>
          <ListItemText
            primary={intl.formatMessage({ id: `integrity.checks.${check.id}` }, values)}
            secondary={intl.formatMessage({ id: `integrity.checks.status.${check.status}` })}
          />
        </ListItem>
      ))}
    </List>
  );
}

/**
 * The record completed from its evidence before anything is hashed: a version 3 leaf holds its token's
 * digest. The same read serves the evidence panel and the receipt.
 */
function VerificationWithEvidence({ record }: { record: Sterilization }) {
  const intl = useIntl();
  const evidence = useQuery(recordEvidenceQueryOptions(record.id));
  const complete = useMemo(() => withEvidence(record, evidence.data), [record, evidence.data]);
  if (evidence.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
        <CircularProgress aria-label={intl.formatMessage({ id: 'integrity.calculating' })} />
      </Box>
    );
  }
  return <VerificationBody record={complete} />;
}

function VerificationBody({ record }: { record: VerifiableRecord }) {
  const intl = useIntl();
  const [form, setForm] = useState<VerificationForm>(() => initialForm(record));
  const debounced = useDebounced(form, DEBOUNCE_MS);
  const calculating = debounced !== form;
  const data = record.blockchain_data;
  const block = data?.blockchain_data_block;
  const txHash = (block?.transaction_hash ?? null) as `0x${string}` | null;

  const hashes = useMemo(() => computeHashes(debounced, record, data), [debounced, record, data]);
  const version = hashingVersionOf(data);
  // From the live form, not the debounced one: the marks follow each keystroke, hashing does not need to.
  const changed = useMemo(() => new Set(changedFields(form, record, version)), [form, record, version]);
  const stored = useMemo(() => initialForm(record), [record]);
  const edited = useMemo(() => formRecord(debounced, record), [debounced, record]);
  const chainInfo = useChainInfo();
  const anchorTx = useAnchorTransaction(chainInfo.data?.rpc_urls, txHash, txHash !== null);
  const server = useServerHashes(
    calculating ? null : edited,
    hashingVersionOf(data),
    data?.blockchain_data_block_id ?? null,
  );

  const chain: ChainRead =
    anchorTx.isFetching || anchorTx.isPending
      ? { status: 'loading' }
      : anchorTx.isError
        ? { status: 'error', message: anchorTx.error.message }
        : { status: 'done', transaction: anchorTx.data };
  const { verdict, checks } = verification({
    hasForm: true,
    blockchainData: data,
    hashes: calculating ? null : hashes,
    contractAddress: chainInfo.data?.contract_address,
    chain,
  });
  const calculatingText = intl.formatMessage({ id: 'integrity.calculating' });
  // On a phone the two columns stack: the verdict, the fields that differ and Restore come first,
  // not after the fourteen fields.
  const narrow = useMediaQuery(useTheme().breakpoints.down('md'), { noSsr: true });
  const verdictView = <VerdictView verdict={verdict} onVerify={() => void anchorTx.refetch()} />;
  const restore = (
    <Box>
      <Button
        size="small"
        startIcon={<Restore />}
        disabled={isPristine(form, record)}
        onClick={() => setForm(initialForm(record))}
      >
        {intl.formatMessage({ id: 'integrity.restore' })}
      </Button>
    </Box>
  );

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, gap: 3 }}>
      {narrow && (
        <Stack
          spacing={1.5}
          component="section"
          aria-label={intl.formatMessage({ id: 'integrity.summary' })}
          data-testid="integrity-summary"
        >
          {verdictView}
          {changed.size > 0 && (
            <ChangedFields
              fields={INTEGRITY_FIELDS.filter((field) => changed.has(field))}
              form={form}
              stored={stored}
            />
          )}
          {restore}
        </Stack>
      )}
      <RecordFieldsForm
        record={record}
        form={form}
        onChange={(field, value) => setForm((previous) => ({ ...previous, [field]: value }))}
        stored={stored}
        changed={changed}
        narrow={narrow}
        restore={restore}
      />
      <Stack spacing={2} sx={{ minWidth: 0 }}>
        <Field labelId="integrity.control_string" testId="integrity-leaf">
          <Box sx={mono}>{calculating ? calculatingText : hashes.leaf}</Box>
        </Field>
        <Field labelId="integrity.block_control_string" testId="integrity-root">
          <Box sx={mono}>
            {!data
              ? // Never "not yet" for a customer without blockchain: its records are never anchored.
                intl.formatMessage({
                  id:
                    record.blockchain_enabled === false
                      ? 'integrity.no_block_disabled'
                      : 'integrity.not_in_block',
                })
              : calculating
                ? calculatingText
                : (hashes.root ?? '—')}
          </Box>
        </Field>
        {server.data && !calculating && (
          <Typography variant="caption" color="text.secondary" data-testid="integrity-server">
            {intl.formatMessage({
              id:
                server.data.hash === hashes.leaf && (server.data.block_hash ?? null) === hashes.root
                  ? 'integrity.server.agrees'
                  : 'integrity.server.differs',
            })}
          </Typography>
        )}
        <Divider />
        <AnchorReading record={record} anchorTx={anchorTx} />
        {!narrow && verdictView}
        <RecordEvidence recordId={record.id} />
        {isAnchored(block?.status) && (
          <CheckList
            checks={checks}
            values={{
              rpc: chainInfo.data?.rpc_url ?? '',
              contract: chainInfo.data?.contract_address ?? '',
              block: data?.blockchain_data_block_id ?? '',
            }}
          />
        )}
        <ReceiptActions record={record} changedCount={changed.size} />
      </Stack>
    </Box>
  );
}

/**
 * The fields that differ from the stored record, first on a phone: each names its stored and current
 * value and takes the reader to its input.
 */
function ChangedFields({
  fields,
  form,
  stored,
}: {
  fields: IntegrityField[];
  form: VerificationForm;
  stored: VerificationForm;
}) {
  const intl = useIntl();
  const empty = intl.formatMessage({ id: 'integrity.changed.empty' });
  return (
    <Alert severity="warning" data-testid="integrity-changed">
      <div>{intl.formatMessage({ id: 'integrity.changed.count' }, { count: fields.length })}</div>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {fields.map((field) => (
          <li key={field}>
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={() => document.getElementById(`integrity-${field}`)?.focus()}
            >
              {intl.formatMessage({ id: `integrity.field.${field}` })}
            </Link>
            {': '}
            {intl.formatMessage(
              { id: 'integrity.changed.values' },
              { stored: stored[field] || empty, value: form[field] || empty },
            )}
          </li>
        ))}
      </Box>
    </Alert>
  );
}

function VerdictView({ verdict, onVerify }: { verdict: Verdict; onVerify: () => void }) {
  const intl = useIntl();
  if (verdict === 'not_sent' || verdict === 'error') return null;
  if (verdict === 'not_mined') {
    return <Alert severity="info">{intl.formatMessage({ id: 'integrity.not_mined' })}</Alert>;
  }
  const running = verdict === 'verifying';
  return (
    <Box>
      <Button
        variant="contained"
        color={VERDICT_COLOR[verdict]}
        onClick={onVerify}
        disabled={running}
        aria-live="polite"
        data-verdict={verdict}
        startIcon={
          running ? (
            <CircularProgress size={16} color="inherit" />
          ) : verdict === 'success' ? (
            <CheckCircle />
          ) : (
            <Cancel />
          )
        }
        // No colour transition: the verdict is read (and checked for contrast) the moment it shows.
        sx={{
          transition: 'none',
          ...(running ? { '&.Mui-disabled': { bgcolor: 'info.main', color: 'info.contrastText' } } : {}),
        }}
      >
        {intl.formatMessage({ id: `integrity.verify.${verdict}` })}
      </Button>
    </Box>
  );
}

export default function VerificationDialog({
  record,
  onClose,
}: {
  record: Sterilization | null | undefined;
  onClose: () => void;
}) {
  const intl = useIntl();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth="lg"
      fullWidth
      fullScreen={phone}
      scroll="paper"
      aria-labelledby="integrity-title"
    >
      <DialogTitle id="integrity-title">{intl.formatMessage({ id: 'integrity.title' })}</DialogTitle>
      <DialogContent dividers>
        {hasFormData(record) ? (
          <VerificationWithEvidence key={record.id} record={record} />
        ) : (
          <Alert severity="error">{intl.formatMessage({ id: 'integrity.error' })}</Alert>
        )}
      </DialogContent>
      <DialogActions>
        {hasFormData(record) && <CycleReportButton recordId={record.id} />}
        <Button variant="contained" onClick={onClose} autoFocus>
          {intl.formatMessage({ id: 'common.ok' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
