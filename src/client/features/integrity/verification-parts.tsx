/** Small pieces the verification window's panels share. */
import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';

/** Hashes, addresses and raw input: monospace, wrapped anywhere. */
export const mono = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  overflowWrap: 'anywhere',
} as const;

/** A labelled value of the verification window. */
export function Field({
  labelId,
  children,
  testId,
}: {
  labelId: string;
  children: ReactNode;
  testId?: string;
}) {
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
