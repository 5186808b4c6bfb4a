/**
 * The verification window's receipt: a download of the proof receipt (with the device's token when it is
 * kept, so that it proves every link from the device's key) and a link to the public /verify page with
 * the receipt in its fragment. Offered only while the form shows the stored record.
 */
import FileDownload from '@mui/icons-material/FileDownload';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { Button, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { recordEvidenceQueryOptions } from '#client/components/record-evidence.tsx';
import { saveBlob } from '#client/lib/save-blob.ts';
import { encodeReceiptFragment } from '#shared/integrity/receipt-link.ts';
import { useChainInfo } from './api/integrity';
import { proofReceipt, proofReceiptWithEvidence, type VerifiableRecord } from './verification';

function saveJson(data: unknown, fileName: string) {
  saveBlob(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }), fileName);
}

export function ReceiptActions({ record, changedCount }: { record: VerifiableRecord; changedCount: number }) {
  const intl = useIntl();
  const chainInfo = useChainInfo();
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
    <>
      {/* The receipt proves the stored record: offered only while the form shows exactly that. */}
      {receiptContent &&
        (changedCount === 0 ? (
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
    </>
  );
}
