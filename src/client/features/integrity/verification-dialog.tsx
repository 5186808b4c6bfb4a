/**
 * docs/product.md §2 "data integrity verification" modal. Left: the record's 14 fields, editable; right: the
 * control string and the block control string computed in this browser (shared integrity module),
 * the anchoring transaction as read from the chain by this browser (GET /chain → rpc_url, viem), and
 * the verdict with the checks behind it. The server's calculateHash is shown as a second opinion only.
 * Default export: the route loads this module lazily.
 */
import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import FileDownload from '@mui/icons-material/FileDownload';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import OpenInNew from '@mui/icons-material/OpenInNew';
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
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { CycleReportButton } from '#client/components/cycle-report/cycle-report-button.tsx';
import { CycleTime } from '#client/components/cycle-time.tsx';
import { LotStatusChip } from '#client/components/lot-status-chip.tsx';
import { RecordEvidence, recordEvidenceQueryOptions } from '#client/components/record-evidence.tsx';
import { formatDateTimeWithUtc } from '#client/lib/dates.ts';
import { saveBlob } from '#client/lib/save-blob.ts';
import type { Sterilization } from '#shared/api/index.ts';
import { encodeReceiptFragment } from '#shared/integrity/receipt-link.ts';
import { useAnchorTransaction, useChainInfo, useServerHashes } from './api/integrity';
import {
  anchoredValues,
  type ChainRead,
  type Check,
  changedFields,
  computeHashes,
  explorerTxUrl,
  formRecord,
  hasFormData,
  hashingVersionOf,
  INTEGRITY_FIELDS,
  type IntegrityField,
  initialForm,
  isAnchored,
  isPristine,
  proofReceipt,
  proofReceiptWithEvidence,
  type Verdict,
  type VerificationForm,
  verification,
} from './verification';

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

const mono = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  overflowWrap: 'anywhere',
} as const;

function Field({ labelId, children, testId }: { labelId: string; children: ReactNode; testId?: string }) {
  const intl = useIntl();
  return (
    <Box data-testid={testId}>
      {/* A label, not a heading (subtitle2 renders an h6 by default). */}
      <Typography variant="subtitle2" component="div" color="text.secondary">
        {intl.formatMessage({ id: labelId })}
      </Typography>
      <Box sx={{ typography: 'body2' }}>{children}</Box>
    </Box>
  );
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

function saveJson(data: unknown, fileName: string) {
  saveBlob(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }), fileName);
}

function VerificationBody({ record }: { record: Sterilization }) {
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
  const transaction = anchorTx.data;
  const anchored = transaction ? anchoredValues(transaction) : null;
  const explorer = explorerTxUrl(block?.network, txHash);
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

  // The receipt proves every link from the device's key when the record's token is kept (format 2).
  const evidence = useQuery(recordEvidenceQueryOptions(record.id));
  const receiptContent = useMemo(
    () =>
      proofReceiptWithEvidence(record, chainInfo.data, evidence.data) ?? proofReceipt(record, chainInfo.data),
    [record, chainInfo.data, evidence.data],
  );
  const receipt = () => {
    if (receiptContent) saveJson(receiptContent, `uvtrace-proof-${record.id}.json`);
  };
  // The public page with this receipt in the fragment: shareable, and no server of ours sees the record.
  const publicLink = useMemo(
    () => (chainInfo.data && receiptContent ? `/verify#${encodeReceiptFragment(receiptContent)}` : null),
    [chainInfo.data, receiptContent],
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
      <Box
        component="form"
        aria-label={intl.formatMessage({ id: 'integrity.form' })}
        onSubmit={(event) => event.preventDefault()}
      >
        <Stack spacing={1.5}>
          {/* The lot's compliance is not part of the hashed record: a fact about it today, shown beside it. */}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="integrity-lot-status">
            <Typography variant="body2" color="text.secondary">
              {intl.formatMessage({ id: 'lot_status.label' })}
            </Typography>
            <LotStatusChip status={record.lot_status} />
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline' }} data-testid="integrity-cycle-ts">
            <Typography variant="body2" color="text.secondary">
              {intl.formatMessage({ id: 'sterilizations.details.cycle_ts' })}
            </Typography>
            <Typography variant="body2" component="span">
              <CycleTime record={record} />
            </Typography>
          </Stack>
          {changed.size > 0 && !narrow && (
            <Alert severity="warning" data-testid="integrity-changed">
              {intl.formatMessage({ id: 'integrity.changed.count' }, { count: changed.size })}
            </Alert>
          )}
          {INTEGRITY_FIELDS.map((field: IntegrityField) => {
            const isChanged = changed.has(field);
            return (
              <TextField
                key={field}
                id={`integrity-${field}`}
                name={field}
                size="small"
                fullWidth
                multiline={field === 'notes'}
                minRows={field === 'notes' ? 2 : undefined}
                label={intl.formatMessage({ id: `integrity.field.${field}` })}
                value={form[field]}
                onChange={(event) => setForm((previous) => ({ ...previous, [field]: event.target.value }))}
                helperText={
                  isChanged
                    ? intl.formatMessage(
                        { id: 'integrity.changed.stored' },
                        { value: stored[field] || intl.formatMessage({ id: 'integrity.changed.empty' }) },
                      )
                    : field === 'received_ts'
                      ? // The field holds the hashed UTC form; the reader gets their local time beside it.
                        intl.formatMessage(
                          { id: 'integrity.received_ts.local' },
                          { value: formatDateTimeWithUtc(form.received_ts) },
                        )
                      : undefined
                }
                data-changed={isChanged ? 'true' : undefined}
                sx={
                  isChanged
                    ? {
                        '& .MuiOutlinedInput-notchedOutline': { borderColor: 'warning.main', borderWidth: 2 },
                        // The default helper colour: warning.dark on white fails WCAG AA contrast.
                        '& .MuiFormHelperText-root': { fontWeight: 500 },
                      }
                    : undefined
                }
              />
            );
          })}
          {!narrow && restore}
        </Stack>
      </Box>
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
        {/* The receipt proves the stored record: offered only while the form shows exactly that. */}
        {receiptContent &&
          (changed.size === 0 ? (
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              <Button size="small" startIcon={<FileDownload />} onClick={receipt} disabled={!chainInfo.data}>
                {intl.formatMessage({ id: 'integrity.receipt' })}
              </Button>
              {publicLink && (
                <Button
                  size="small"
                  component="a"
                  href={publicLink}
                  target="_blank"
                  rel="noopener"
                  startIcon={<OpenInNew />}
                  data-testid="integrity-public-link"
                >
                  {intl.formatMessage({ id: 'integrity.verify_public' })}
                </Button>
              )}
            </Stack>
          ) : (
            <Typography variant="caption" color="text.secondary" data-testid="integrity-receipt-unavailable">
              {intl.formatMessage({ id: 'integrity.receipt_unavailable' })}
            </Typography>
          ))}
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
          <VerificationBody key={record.id} record={record} />
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
