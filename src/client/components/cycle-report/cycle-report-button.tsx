/**
 * "Cycle report (PDF)" of one record, in the reader's language: on the details card and in
 * the verification modal. The file comes from the server (pdf-lib), with a QR code to /verify once the
 * record is anchored.
 */
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import { Button } from '@mui/material';
import { useIntl } from 'react-intl';
import { useDownloadCycleReport } from './download-cycle-report';

export function CycleReportButton({ recordId }: { recordId: number }) {
  const intl = useIntl();
  const download = useDownloadCycleReport();
  const lang = intl.locale === 'it' ? 'it' : 'en';
  return (
    <Button
      size="small"
      startIcon={<PictureAsPdf />}
      disabled={download.isPending}
      onClick={() => download.mutate({ id: recordId, lang })}
      data-testid="cycle-report-download"
    >
      {intl.formatMessage({ id: 'sterilizations.cycle_report.download' })}
    </Button>
  );
}
