import { Alert, Box, Chip, Typography } from '@mui/material';
import { useMemo } from 'react';
import { type IntlShape, useIntl } from 'react-intl';
import { type DataColumn, DataTable, pagedRows } from '#client/components/data-table/index.ts';
import { perPagePatch } from '#client/components/data-table/list-search.ts';
import { FilterBar, ListPage, SelectFilter, TextFilter } from '#client/components/list/index.ts';
import { formatDateTime } from '#client/lib/dates.ts';
import type { Mail } from '#shared/api/index.ts';
import { useOutbox } from './api/outbox';
import { MAIL_STATES, type OutboxSearch } from './search';

const STATE_COLORS = { pending: 'default', sent: 'success', failed: 'error' } as const;

function outboxColumns(intl: IntlShape, sendingEnabled: boolean | undefined): DataColumn<Mail>[] {
  return [
    {
      id: 'created_at',
      headerId: 'mail.list.created_at',
      cell: (row) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(row.created_at)}
        </Box>
      ),
    },
    { id: 'to_address', headerId: 'mail.list.to', cell: (row) => row.to_address },
    {
      id: 'message',
      headerId: 'mail.list.message',
      cell: (row) => (
        <Box component="details" lang={row.language}>
          <Box component="summary" sx={{ cursor: 'pointer', fontWeight: 500 }}>
            {row.subject}
          </Box>
          <Typography component="pre" variant="body2" sx={{ whiteSpace: 'pre-wrap', m: 0, mt: 1 }}>
            {row.body_text}
          </Typography>
        </Box>
      ),
    },
    {
      id: 'state',
      headerId: 'mail.list.state',
      cell: (row) => (
        <Box>
          <Chip
            size="small"
            color={STATE_COLORS[row.state]}
            // Without a mail server a waiting mail is never sent: said so, not "waiting".
            label={intl.formatMessage({
              id:
                row.state === 'pending' && sendingEnabled === false
                  ? 'mail.state.not_sending'
                  : `mail.state.${row.state}`,
            })}
          />
          {row.sent_at && (
            <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {formatDateTime(row.sent_at)}
            </Typography>
          )}
          {!row.sent_at && row.last_error && (
            <Typography component="span" variant="caption" color="error" sx={{ display: 'block' }}>
              {intl.formatMessage({ id: 'mail.list.attempts' }, { attempts: row.attempts })}: {row.last_error}
            </Typography>
          )}
        </Box>
      ),
    },
  ];
}

/**
 * The e-mail outbox (canSeeMailOutbox), newest first: every alert mail the product queued and whether
 * it went out. Without an SMTP server this is where the mails are read.
 */
export function OutboxPage({
  search,
  onSearchChange,
}: {
  search: OutboxSearch;
  onSearchChange: (patch: Partial<OutboxSearch>) => void;
}) {
  const intl = useIntl();
  const outbox = useOutbox(search);
  const sendingEnabled = outbox.data?.sending_enabled;
  const columns = useMemo(() => outboxColumns(intl, sendingEnabled), [intl, sendingEnabled]);

  return (
    <ListPage times titleId="mail.list.title">
      {sendingEnabled === false && (
        <Alert severity="info">{intl.formatMessage({ id: 'mail.list.not_sending' })}</Alert>
      )}
      <FilterBar
        labelId="mail.filter.label"
        filtered={search.state !== undefined || search.to !== undefined}
        onReset={() => onSearchChange({ state: undefined, to: undefined, page: 1 })}
      >
        <SelectFilter
          name="state"
          labelId="mail.filter.state"
          value={search.state}
          options={MAIL_STATES.map((state) => ({
            value: state,
            label: intl.formatMessage({ id: `mail.state.${state}` }),
          }))}
          allLabelId="mail.filter.all_states"
          onChange={(value) => onSearchChange({ state: MAIL_STATES.find((s) => s === value), page: 1 })}
        />
        <TextFilter
          name="to"
          labelId="mail.filter.to"
          value={search.to}
          onChange={(to) => onSearchChange({ to, page: 1 })}
        />
      </FilterBar>
      <DataTable<Mail>
        labelId="mail.list.title"
        columns={columns}
        {...pagedRows(outbox)}
        getRowId={(row) => row.id}
        page={search.page}
        onPageChange={(page) => onSearchChange({ page })}
        onPerPageChange={(perPage) => onSearchChange(perPagePatch(perPage))}
        listName="outbox"
        columnChoice={search.columns}
        onColumnChoiceChange={(columns) => onSearchChange({ columns })}
        emptyMessageId="mail.list.empty"
        size="small"
      />
    </ListPage>
  );
}
