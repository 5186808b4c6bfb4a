/** One check of a proof receipt, as the public /verify page lists it: its name, pass or fail, and why. */
import Cancel from '@mui/icons-material/Cancel';
import CheckCircle from '@mui/icons-material/CheckCircle';
import { Box, ListItem, ListItemIcon, ListItemText } from '@mui/material';
import { type IntlShape, useIntl } from 'react-intl';
import type { ReceiptCheck } from '#shared/integrity/receipt.ts';

const mono = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  overflowWrap: 'anywhere',
} as const;

/** The message id of a check's name (and, with a suffix, of its explanation). */
export type CheckMessageId = (name: ReceiptCheck['name']) => string;
const recordCheckId: CheckMessageId = (name) => `verify.check.${name}`;

/** A check's explanation in the page's language ("could not be checked" when it read nothing). */
export function checkExplanation(
  intl: IntlShape,
  check: ReceiptCheck,
  network: string,
  messageId: CheckMessageId = recordCheckId,
): string {
  return check.values
    ? intl.formatMessage(
        { id: `${messageId(check.name)}.${check.ok ? 'pass' : 'fail'}` },
        // A count is a number to the message's plural rule ("1 confirmation", "2 confirmations").
        { ...check.values, ...(check.values.count ? { count: Number(check.values.count) } : {}), network },
      )
    : intl.formatMessage({ id: 'verify.check.not_checked' });
}

export function CheckItem({
  check,
  network,
  messageId = recordCheckId,
}: {
  check: ReceiptCheck;
  network: string;
  messageId?: CheckMessageId;
}) {
  const intl = useIntl();
  // A check that failed before reading anything (node unreachable, earlier check failed) has no values.
  const explanation = checkExplanation(intl, check, network, messageId);
  const fields = check.name === 'leaf' && !check.ok ? check.values?.fields : undefined;
  return (
    <ListItem disableGutters data-check={check.name} data-status={check.ok ? 'pass' : 'fail'}>
      <ListItemIcon sx={{ minWidth: 32 }}>
        {check.ok ? (
          <CheckCircle color="success" fontSize="small" />
        ) : (
          <Cancel color="error" fontSize="small" />
        )}
      </ListItemIcon>
      <ListItemText
        primary={`${intl.formatMessage({ id: messageId(check.name) })}: ${intl.formatMessage({
          id: `integrity.checks.status.${check.ok ? 'pass' : 'fail'}`,
        })}`}
        secondary={
          <>
            <Box component="span" sx={{ display: 'block', ...mono }}>
              {explanation}
            </Box>
            {fields && (
              <Box component="span" sx={{ display: 'block' }} data-testid="verify-leaf-fields">
                {intl.formatMessage(
                  { id: 'verify.check.leaf.fields' },
                  {
                    fields: fields
                      .split(', ')
                      .map((field) => intl.formatMessage({ id: `integrity.field.${field}` }))
                      .join(', '),
                  },
                )}
              </Box>
            )}
          </>
        }
      />
    </ListItem>
  );
}
