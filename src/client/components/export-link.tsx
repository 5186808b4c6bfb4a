/**
 * The download link of a CSV export. Its href shows where it leads; a click first gets a one-time
 * ticket from the API (so the session token never travels in a URL) and then downloads the file
 * without leaving the page.
 */
import Download from '@mui/icons-material/Download';
import { Link } from '@mui/material';
import { useIntl } from 'react-intl';

/** Starts the browser's download of `url` in place. */
export function downloadUrl(url: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = '';
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

export function ExportLink(props: { href: string; labelId: string; pending: boolean; onExport: () => void }) {
  const intl = useIntl();
  return (
    <Link
      href={props.href}
      underline="none"
      onClick={(event) => {
        event.preventDefault();
        if (!props.pending) props.onExport();
      }}
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, ml: 'auto' }}
    >
      <Download fontSize="small" />
      {intl.formatMessage({ id: props.labelId })}
    </Link>
  );
}
