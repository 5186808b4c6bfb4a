/**
 * The public page's check of a signed compliance report (docs/integrity.md §10): the visitor drops the
 * PDF and its report receipt; this browser hashes the PDF (SHA-256), rebuilds the report leaf, folds
 * the proof and reads the anchor from the chain node. Nothing is sent anywhere but the node.
 */
import Description from '@mui/icons-material/Description';
import { Alert, Box, CircularProgress, List, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useIntl } from 'react-intl';
import type { ReceiptCheck } from '#shared/integrity/receipt.ts';
import {
  isReportReceipt,
  type ReportReceipt,
  verifyReportReceipt,
} from '#shared/integrity/report-receipt.ts';
import { CheckItem, type CheckMessageId } from './check-item';

const REPORT_CHECKS = new Set<ReceiptCheck['name']>(['format', 'document', 'leaf']);
const reportCheckId: CheckMessageId = (name) =>
  REPORT_CHECKS.has(name) ? `verify.report.check.${name}` : `verify.check.${name}`;

type Files = {
  pdf?: { name: string; bytes: Uint8Array };
  receipt?: { name: string; value: ReportReceipt };
  error?: string;
};

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46]; // %PDF

/** Sorts the dropped files into the PDF and the receipt by their content, not their names. */
async function classify(files: File[], previous: Files): Promise<Files> {
  const next: Files = { pdf: previous.pdf, receipt: previous.receipt };
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (PDF_MAGIC.every((byte, i) => bytes[i] === byte)) {
      next.pdf = { name: file.name, bytes };
      continue;
    }
    try {
      const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
      if (!isReportReceipt(value)) throw new Error('not a report receipt');
      next.receipt = { name: file.name, value };
    } catch {
      next.error = file.name;
    }
  }
  return next;
}

function Checks({
  pdf,
  receipt,
  rpcUrl,
  run,
}: {
  pdf: Uint8Array;
  receipt: ReportReceipt;
  rpcUrl: string;
  run: number;
}) {
  const intl = useIntl();
  const result = useQuery({
    queryKey: ['verify-report', rpcUrl, JSON.stringify(receipt), pdf.length, run, pdf],
    queryFn: () => verifyReportReceipt(pdf, receipt, { rpcUrl, confirmations: true }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    meta: { silentError: true },
  });
  if (result.isPending) {
    return (
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center' }}
        data-testid="verify-report-verdict"
        data-verdict="verifying"
      >
        <CircularProgress size={16} />
        <span>{intl.formatMessage({ id: 'verify.verdict.verifying' })}</span>
      </Stack>
    );
  }
  if (result.isError) {
    return (
      <Alert severity="error" data-testid="verify-report-verdict" data-verdict="failed">
        {intl.formatMessage({ id: 'verify.report.verdict.failed' })}
      </Alert>
    );
  }
  return (
    <>
      <Alert
        severity={result.data.ok ? 'success' : 'error'}
        data-testid="verify-report-verdict"
        data-verdict={result.data.ok ? 'success' : 'failed'}
        aria-live="polite"
      >
        {intl.formatMessage({
          id: result.data.ok ? 'verify.report.verdict.success' : 'verify.report.verdict.failed',
        })}
      </Alert>
      <List dense disablePadding aria-label={intl.formatMessage({ id: 'verify.report.title' })}>
        {result.data.checks.map((check) => (
          <CheckItem
            key={check.name}
            check={check}
            network={String(receipt.network ?? '—')}
            messageId={reportCheckId}
          />
        ))}
      </List>
    </>
  );
}

export function ReportVerification({ rpcUrl, run }: { rpcUrl: string; run: number }) {
  const intl = useIntl();
  const [files, setFiles] = useState<Files>({});
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    multiple: true,
    onDrop: (accepted) => void classify(accepted, files).then(setFiles),
  });
  return (
    <Stack spacing={1.5} component="section" aria-labelledby="verify-report-title">
      <Typography id="verify-report-title" variant="h6" component="h2">
        {intl.formatMessage({ id: 'verify.report.title' })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {intl.formatMessage({ id: 'verify.report.intro' })}
      </Typography>
      <Paper
        variant="outlined"
        {...getRootProps({ role: 'button', 'aria-labelledby': 'verify-report-prompt' })}
        sx={{
          p: 2,
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: isDragActive ? 'primary.main' : 'divider',
          cursor: 'pointer',
          textAlign: 'center',
          outline: 'none',
          '&:focus-visible': { borderColor: 'primary.main' },
        }}
      >
        <Description color={isDragActive ? 'primary' : 'action'} />
        <Typography id="verify-report-prompt" variant="body2">
          {intl.formatMessage({ id: 'verify.report.drop' })}
        </Typography>
        <input {...getInputProps()} data-testid="verify-report-files" />
      </Paper>
      <Box>
        <Typography variant="body2" data-testid="verify-report-pdf">
          {intl.formatMessage({ id: 'verify.report.pdf' }, { name: files.pdf?.name ?? '—' })}
        </Typography>
        <Typography variant="body2" data-testid="verify-report-receipt">
          {intl.formatMessage({ id: 'verify.report.receipt' }, { name: files.receipt?.name ?? '—' })}
        </Typography>
      </Box>
      {files.error && (
        <Alert severity="error">
          {intl.formatMessage({ id: 'verify.report.error' }, { name: files.error })}
        </Alert>
      )}
      {files.pdf && files.receipt && (
        <Checks pdf={files.pdf.bytes} receipt={files.receipt.value} rpcUrl={rpcUrl} run={run} />
      )}
    </Stack>
  );
}
