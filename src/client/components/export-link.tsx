/**
 * The download link of a CSV export. Its href is the app's download page for these filters (a new tab
 * or a copied link starts the same download there); a click gets a one-time ticket from the API and
 * downloads the file without leaving the page.
 */
import Download from '@mui/icons-material/Download';
import { Link } from '@mui/material';
import { useIntl } from 'react-intl';
import {
  downloadPageHref,
  downloadUrl,
  type ExportFilters,
  type ExportName,
  useExportFileUrl,
} from '../lib/exports';

export function ExportLink<N extends ExportName>({
  exportName,
  filters,
  labelId,
}: {
  exportName: N;
  filters: ExportFilters[N];
  labelId: string;
}) {
  const intl = useIntl();
  const exporter = useExportFileUrl(exportName);
  return (
    <Link
      href={downloadPageHref(exportName, filters)}
      underline="none"
      onClick={(event) => {
        event.preventDefault();
        if (!exporter.isPending) exporter.mutate(filters, { onSuccess: downloadUrl });
      }}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, ml: 'auto' }}
    >
      <Download fontSize="small" />
      {intl.formatMessage({ id: labelId })}
    </Link>
  );
}
