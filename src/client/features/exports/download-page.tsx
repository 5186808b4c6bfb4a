import Download from '@mui/icons-material/Download';
import { Alert, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { downloadUrl, type ExportFilters, type ExportName, useExportFileUrl } from '#client/lib/exports.ts';

/**
 * Starts an export's download once, as soon as the page opens (a ticket, then the file), and offers
 * to start it again. A refusal (e.g. a role without the export's ability) shows the usual alert.
 */
export function DownloadPage<N extends ExportName>({
  exportName,
  filters,
}: {
  exportName: N;
  filters: ExportFilters[N];
}) {
  const intl = useIntl();
  const exporter = useExportFileUrl(exportName);
  const started = useRef(false);
  const start = () => exporter.mutate(filters, { onSuccess: downloadUrl });
  // Once per page, also under StrictMode's double effects: each start spends a ticket.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page opens only
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, []);

  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1">
        {intl.formatMessage({ id: 'download.title' })}
      </Typography>
      <Card>
        <CardContent>
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            <Typography>{intl.formatMessage({ id: `download.export.${exportName}` })}</Typography>
            {exporter.isPending && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <CircularProgress size={20} aria-hidden />
                <Typography role="status">{intl.formatMessage({ id: 'download.starting' })}</Typography>
              </Stack>
            )}
            {exporter.isSuccess && (
              <Alert severity="success" role="status">
                {intl.formatMessage({ id: 'download.started' })}
              </Alert>
            )}
            {exporter.isError && (
              <Alert severity="error">{intl.formatMessage({ id: 'download.failed' })}</Alert>
            )}
            <Button variant="outlined" startIcon={<Download />} disabled={exporter.isPending} onClick={start}>
              {intl.formatMessage({ id: 'download.again' })}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
