/**
 * The four links of a receipt of format 2 on the public /verify page (docs/integrity.md §14): from the
 * device's key to the chain, each passed, failed or not available, and why.
 */
import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import DoNotDisturb from '@mui/icons-material/DoNotDisturb';
import { Alert, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import type { LinkResult } from '#shared/integrity/device-evidence.ts';

const ICONS = {
  pass: <CheckCircle color="success" fontSize="small" />,
  fail: <Cancel color="error" fontSize="small" />,
  unavailable: <DoNotDisturb color="disabled" fontSize="small" />,
};

export function LinkList({ links }: { links: LinkResult[] }) {
  const intl = useIntl();
  const field = (names: string | undefined) =>
    (names ?? '')
      .split(', ')
      .filter(Boolean)
      .map((name) => intl.formatMessage({ id: `integrity.field.${name}` }))
      .join(', ');
  return (
    <Stack spacing={1} component="section" aria-labelledby="verify-links-title" data-testid="verify-links">
      <Typography id="verify-links-title" variant="h6" component="h2">
        {intl.formatMessage({ id: 'verify.links.title' })}
      </Typography>
      {links.some((link) => link.status === 'unavailable') && (
        <Alert severity="info" data-testid="verify-links-unavailable">
          {intl.formatMessage({ id: 'verify.links.no_blockchain' })}
        </Alert>
      )}
      <List dense disablePadding aria-labelledby="verify-links-title">
        {links.map((link, i) => (
          <ListItem key={link.link} disableGutters data-link={link.link} data-status={link.status}>
            <ListItemIcon sx={{ minWidth: 32 }}>{ICONS[link.status]}</ListItemIcon>
            <ListItemText
              primary={`(${i + 1}) ${intl.formatMessage({ id: `verify.link.${link.link}` })}: ${intl.formatMessage(
                {
                  id: `verify.link.status.${link.status}`,
                },
              )}`}
              secondary={intl.formatMessage(
                { id: `verify.link.reason.${link.reason}` },
                { ...link.values, field: field(link.values.field) },
              )}
            />
          </ListItem>
        ))}
      </List>
    </Stack>
  );
}
