import OpenInNew from '@mui/icons-material/OpenInNew';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Link,
  List,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useIntl } from 'react-intl';
import { isProofBundle } from '#shared/integrity/bundle.ts';
import { isHashingVersion, leafFields } from '#shared/integrity/index.ts';
import { type ReceiptInput, verifyReceipt } from '#shared/integrity/receipt.ts';
import { decodeReceiptFragment } from '#shared/integrity/receipt-link.ts';
import { BundleVerification } from './bundle-verification';
import { CheckItem } from './check-item';
import { LinkList } from './link-list';
import { ReportVerification } from './report-verification';
import { explorerTxUrl, INTEGRITY_FIELDS } from './verification';

/**
 * The node asked by default: this site's read-only endpoint, served beside the static app and not
 * part of /api. Not the receipt's own rpc_url: a receipt must not choose the node that vouches for it.
 */
const DEFAULT_RPC_PATH = '/chain-rpc';

const mono = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  overflowWrap: 'anywhere',
} as const;

type Loaded =
  | { state: 'none' }
  | { state: 'error'; source: 'file' | 'link'; name?: string }
  | { state: 'ready'; source: 'file' | 'link'; name?: string; receipt: ReceiptInput }
  // A proof bundle: its text goes to the worker, which checks every record.
  | { state: 'bundle'; name: string; text: string; count: number; network: string };

function fromFragment(hash: string): Loaded {
  try {
    const receipt = decodeReceiptFragment(hash);
    return receipt ? { state: 'ready', source: 'link', receipt } : { state: 'none' };
  } catch {
    return { state: 'error', source: 'link' };
  }
}

async function fromFile(file: File): Promise<Loaded> {
  try {
    const text = await file.text();
    const receipt: unknown = JSON.parse(text);
    if (typeof receipt !== 'object' || receipt === null || Array.isArray(receipt)) throw new Error();
    if (isProofBundle(receipt)) {
      const network = String(receipt.network ?? '—');
      return { state: 'bundle', name: file.name, text, count: receipt.records.length, network };
    }
    return { state: 'ready', source: 'file', name: file.name, receipt: receipt as ReceiptInput };
  } catch {
    return { state: 'error', source: 'file', name: file.name };
  }
}

function ReceiptDropzone({ onLoaded }: { onLoaded: (loaded: Loaded) => void }) {
  const intl = useIntl();
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    // Not restricted by type: a receipt saved by another tool may lack the .json name or MIME type.
    multiple: false,
    onDrop: (accepted) => {
      const file = accepted[0];
      if (file) void fromFile(file).then(onLoaded);
    },
  });
  return (
    <Paper
      variant="outlined"
      {...getRootProps({ role: 'button', 'aria-labelledby': 'verify-drop-prompt' })}
      sx={{
        p: 3,
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: isDragActive ? 'primary.main' : 'divider',
        bgcolor: isDragActive ? 'action.hover' : 'background.default',
        cursor: 'pointer',
        textAlign: 'center',
        outline: 'none',
        '&:focus-visible': { borderColor: 'primary.main' },
      }}
      data-testid="verify-dropzone"
    >
      <UploadFile color={isDragActive ? 'primary' : 'action'} sx={{ fontSize: 36 }} />
      <Typography id="verify-drop-prompt" variant="body2" sx={{ mt: 1 }}>
        {intl.formatMessage({ id: isDragActive ? 'verify.drop.active' : 'verify.drop' })}
      </Typography>
      <input {...getInputProps()} data-testid="verify-file" />
    </Paper>
  );
}

function Summary({ receipt }: { receipt: ReceiptInput }) {
  const intl = useIntl();
  const record = (typeof receipt.record === 'object' && receipt.record) || null;
  const explorer = explorerTxUrl(receipt.network, receipt.transaction_hash);
  const rows: Array<[string, string]> = [
    ['verify.summary.block', String(receipt.block_id ?? '—')],
    ['verify.summary.network', `${receipt.network ?? '—'} (${receipt.chain_id ?? '—'})`],
    ['verify.summary.contract', String(receipt.contract_address ?? '—')],
    ['verify.summary.transaction', String(receipt.transaction_hash ?? '—')],
  ];
  return (
    <Stack spacing={1} component="section" aria-labelledby="verify-record-title">
      <Typography id="verify-record-title" variant="h6" component="h2">
        {intl.formatMessage({ id: 'verify.record.title' })}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, gap: 0.5, m: 0 }}
      >
        {record &&
          (isHashingVersion(receipt.hashing_version)
            ? leafFields(receipt.hashing_version)
            : INTEGRITY_FIELDS
          ).map((field) => (
            <Box key={field} sx={{ display: 'contents' }}>
              <Box component="dt" sx={{ color: 'text.secondary', pr: 2 }}>
                {intl.formatMessage({ id: `integrity.field.${field}` })}
              </Box>
              <Box component="dd" sx={{ m: 0, ...mono }} data-field={field}>
                {record[field] ?? '—'}
              </Box>
            </Box>
          ))}
        {rows.map(([labelId, value]) => (
          <Box key={labelId} sx={{ display: 'contents' }}>
            <Box component="dt" sx={{ color: 'text.secondary', pr: 2 }}>
              {intl.formatMessage({ id: labelId })}
            </Box>
            <Box component="dd" sx={{ m: 0, ...mono }}>
              {value}
            </Box>
          </Box>
        ))}
      </Box>
      <Box data-testid="verify-explorer">
        {explorer ? (
          <Link
            href={explorer}
            target="_blank"
            rel="noopener noreferrer"
            sx={{ display: 'inline-flex', gap: 0.5 }}
          >
            {intl.formatMessage({ id: 'verify.explorer' })}
            <OpenInNew fontSize="inherit" />
          </Link>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {intl.formatMessage({ id: 'verify.explorer.none' }, { network: receipt.network ?? '—' })}
          </Typography>
        )}
      </Box>
    </Stack>
  );
}

function Verification({ receipt, rpcUrl, run }: { receipt: ReceiptInput; rpcUrl: string; run: number }) {
  const intl = useIntl();
  const result = useQuery({
    queryKey: ['verify-receipt', rpcUrl, JSON.stringify(receipt), run],
    queryFn: () => verifyReceipt(receipt, { rpcUrl, confirmations: true }),
    // Each visit asks the node again: confirmations grow, and a node may have been fixed meanwhile.
    staleTime: 0,
    gcTime: 0,
    retry: false,
    meta: { silentError: true },
  });
  const network = String(receipt.network ?? '—');
  return (
    <Stack spacing={1.5} component="section" aria-labelledby="verify-checks-title">
      <Typography id="verify-checks-title" variant="h6" component="h2">
        {intl.formatMessage({ id: 'verify.checks.title' })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={mono}>
        {intl.formatMessage({ id: 'verify.checks.node' }, { rpc: rpcUrl })}
      </Typography>
      {result.isPending ? (
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center' }}
          data-testid="verify-verdict"
          data-verdict="verifying"
        >
          <CircularProgress size={16} />
          <span>{intl.formatMessage({ id: 'verify.verdict.verifying' })}</span>
        </Stack>
      ) : result.isError ? (
        <Alert severity="error" data-testid="verify-verdict" data-verdict="failed">
          {intl.formatMessage({ id: 'verify.verdict.failed' })}
        </Alert>
      ) : (
        <>
          <Alert
            severity={result.data.ok ? 'success' : 'error'}
            data-testid="verify-verdict"
            data-verdict={result.data.ok ? 'success' : 'failed'}
            aria-live="polite"
          >
            {intl.formatMessage({ id: result.data.ok ? 'verify.verdict.success' : 'verify.verdict.failed' })}
          </Alert>
          {result.data.links && <LinkList links={result.data.links} />}
          <List dense disablePadding aria-labelledby="verify-checks-title">
            {result.data.checks.map((check) => (
              <CheckItem key={check.name} check={check} network={network} />
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}

export function VerifyPage() {
  const intl = useIntl();
  const [loaded, setLoaded] = useState<Loaded>(() => fromFragment(window.location.hash));
  const defaultRpc = new URL(DEFAULT_RPC_PATH, window.location.origin).href;
  const [rpcText, setRpcText] = useState(defaultRpc);
  const [rpcUrl, setRpcUrl] = useState(defaultRpc);
  // "Verify" asks the node again even with the same URL.
  const [run, setRun] = useState(0);

  // A link opened while the page is already shown (another receipt's link) replaces the receipt.
  useEffect(() => {
    const onHashChange = () => {
      const next = fromFragment(window.location.hash);
      if (next.state !== 'none') setLoaded(next);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  const submitRpc = (event: FormEvent) => {
    event.preventDefault();
    try {
      setRpcUrl(new URL(rpcText.trim(), window.location.origin).href);
      setRun((count) => count + 1);
    } catch {
      setRpcText(rpcUrl);
    }
  };

  return (
    <Stack
      spacing={3}
      component="section"
      aria-labelledby="verify-title"
      sx={{ maxWidth: 960, mx: 'auto', mt: { xs: 1, md: 3 } }}
    >
      <Box>
        <Typography id="verify-title" variant="h4" component="h1" sx={{ fontWeight: 700 }}>
          {intl.formatMessage({ id: 'verify.title' })}
        </Typography>
        <Typography variant="body1" color="text.secondary" sx={{ mt: 1 }}>
          {intl.formatMessage({ id: 'verify.intro' })}
        </Typography>
      </Box>
      <ReceiptDropzone onLoaded={setLoaded} />
      <Box component="form" onSubmit={submitRpc} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          size="small"
          fullWidth
          name="rpc"
          label={intl.formatMessage({ id: 'verify.rpc.label' })}
          helperText={intl.formatMessage({ id: 'verify.rpc.help' })}
          value={rpcText}
          onChange={(event) => setRpcText(event.target.value)}
        />
        <Button type="submit" variant="outlined">
          {intl.formatMessage({ id: 'verify.rpc.submit' })}
        </Button>
      </Box>
      {loaded.state === 'error' && (
        <Alert severity="error" data-testid="verify-load-error">
          {loaded.source === 'file'
            ? intl.formatMessage({ id: 'verify.error.file' }, { name: loaded.name ?? '' })
            : intl.formatMessage({ id: 'verify.error.link' })}
        </Alert>
      )}
      {loaded.state === 'ready' && (
        <>
          <Typography variant="body2" color="text.secondary" data-testid="verify-source">
            {loaded.source === 'file'
              ? intl.formatMessage({ id: 'verify.source.file' }, { name: loaded.name ?? '' })
              : intl.formatMessage({ id: 'verify.source.link' })}
          </Typography>
          <Verification receipt={loaded.receipt} rpcUrl={rpcUrl} run={run} />
          <Summary receipt={loaded.receipt} />
        </>
      )}
      {loaded.state === 'bundle' && (
        <>
          <Typography variant="body2" color="text.secondary" data-testid="verify-source">
            {intl.formatMessage({ id: 'verify.source.bundle' }, { name: loaded.name })}
          </Typography>
          <BundleVerification
            key={`${loaded.name}:${loaded.text.length}`}
            text={loaded.text}
            count={loaded.count}
            network={loaded.network}
            rpcUrl={rpcUrl}
            run={run}
          />
        </>
      )}
      <ReportVerification rpcUrl={rpcUrl} run={run} />
    </Stack>
  );
}
