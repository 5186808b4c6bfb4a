import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';

/**
 * The frame of a section listing things of an entity on its page (its history, its open alerts, a
 * device's gaps): a section named by its heading (icon and title), a link to the full list beside it
 * (if any), then the content.
 */
export function ListPanel({
  headingId,
  icon,
  titleId,
  link,
  children,
}: {
  /** The heading element's id, unique on the page (the section is labelled by it). */
  headingId: string;
  icon: ReactNode;
  /** Message id of the title. */
  titleId: string;
  /** The link to the full list, filtered to this entity; none when empty. */
  link?: ReactNode;
  children: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Card component="section" aria-labelledby={headingId}>
      <CardContent>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            {icon}
            <Typography variant="h6" component="h2" id={headingId}>
              {intl.formatMessage({ id: titleId })}
            </Typography>
          </Box>
          {link}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}
