/**
 * Copies a text to the clipboard: the button's label turns to "Copied" for a moment, announced to
 * screen readers; when the browser refuses (no clipboard outside a secure page), a toast says to
 * select the text and copy it by hand. Every copy action of the app uses it.
 */
import Check from '@mui/icons-material/Check';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { Box, Button, type ButtonProps } from '@mui/material';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { toast } from '../lib/toasts';
import { visuallyHidden } from './visually-hidden';

const COPIED_MS = 2000;

export function CopyButton({
  text,
  labelId,
  values,
  size = 'small',
}: {
  text: string;
  /** Message id of the button's label ("Copy the private key"). */
  labelId: string;
  values?: Record<string, string | number>;
  size?: ButtonProps['size'];
}) {
  const intl = useIntl();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      toast.error({ id: 'copy.failed' });
    }
  };

  return (
    <>
      <Button size={size} startIcon={copied ? <Check /> : <ContentCopy />} onClick={() => void copy()}>
        {intl.formatMessage({ id: labelId }, values)}
      </Button>
      <Box component="span" role="status" sx={visuallyHidden}>
        {copied ? intl.formatMessage({ id: 'copy.done' }) : ''}
      </Box>
    </>
  );
}
