import RestartAlt from '@mui/icons-material/RestartAlt';
import { Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import type { AuditEntry } from '../../../shared/api/index.ts';
import { DataTable } from '../../components/data-table';
import { DateFilter } from '../../components/data-table/date-filter';
import { useAudit } from './api/audit';
import { auditColumns } from './components/audit-columns';
import { AUDIT_ENTITY_TYPES, type AuditListSearch } from './search';

/** A text filter applied when the field is left or with Enter, so a refetch never interrupts typing. */
function CommitField({
  name,
  labelId,
  value,
  onCommit,
  disabled = false,
  inputMode,
}: {
  name: string;
  labelId: string;
  value: string | undefined;
  onCommit: (value: string | undefined) => void;
  disabled?: boolean;
  inputMode?: 'numeric';
}) {
  const intl = useIntl();
  const [draft, setDraft] = useState(value ?? '');
  // The URL changed (reset, back button, a link): show it.
  useEffect(() => setDraft(value ?? ''), [value]);
  const commit = () => {
    const next = draft.trim() === '' ? undefined : draft.trim();
    if (next !== value) onCommit(next);
  };
  return (
    <TextField
      size="small"
      name={name}
      label={intl.formatMessage({ id: labelId })}
      value={draft}
      disabled={disabled}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      slotProps={{ htmlInput: inputMode ? { inputMode, pattern: '[0-9]*' } : undefined }}
      sx={{ width: inputMode ? 120 : 240 }}
    />
  );
}

/**
 * The audit trail (docs/audit.md), newest first; page and filters live in the URL, so a filtered
 * view is a link that survives a reload.
 */
export function AuditListPage({
  search,
  onSearchChange,
}: {
  search: AuditListSearch;
  onSearchChange: (patch: Partial<AuditListSearch>) => void;
}) {
  const intl = useIntl();
  const audit = useAudit(search);
  const columns = useMemo(() => auditColumns(intl, true), [intl]);
  const filtered = [search.entityType, search.actor, search.from, search.to].some(
    (value) => value !== undefined,
  );

  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1">
        {intl.formatMessage({ id: 'audit.list.title' })}
      </Typography>
      <Card>
        <CardContent>
          <Box
            role="search"
            aria-label={intl.formatMessage({ id: 'audit.filter.label' })}
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 1 }}
          >
            <TextField
              select
              size="small"
              name="entityType"
              label={intl.formatMessage({ id: 'audit.filter.entity_type' })}
              value={search.entityType ?? ''}
              onChange={(event) => {
                const entityType = AUDIT_ENTITY_TYPES.find((type) => type === event.target.value);
                onSearchChange({ entityType, entityId: undefined, page: 1 });
              }}
              sx={{ minWidth: 180 }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">
                <em>{intl.formatMessage({ id: 'audit.filter.all_entities' })}</em>
              </MenuItem>
              {AUDIT_ENTITY_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {intl.formatMessage({ id: `audit.entity.${type}` })}
                </MenuItem>
              ))}
            </TextField>
            <CommitField
              name="entityId"
              labelId="audit.filter.entity_id"
              inputMode="numeric"
              value={search.entityId === undefined ? undefined : String(search.entityId)}
              disabled={search.entityType === undefined}
              onCommit={(text) => {
                const id = text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
                onSearchChange({ entityId: id !== undefined && id > 0 ? id : undefined, page: 1 });
              }}
            />
            <CommitField
              name="actor"
              labelId="audit.filter.actor"
              value={search.actor}
              onCommit={(actor) => onSearchChange({ actor, page: 1 })}
            />
            <DateFilter
              name="from"
              labelId="audit.filter.from"
              value={search.from}
              onChange={(from) => onSearchChange({ from, page: 1 })}
            />
            <DateFilter
              name="to"
              labelId="audit.filter.to"
              value={search.to}
              onChange={(to) => onSearchChange({ to, page: 1 })}
            />
            <Button
              startIcon={<RestartAlt />}
              disabled={!filtered}
              onClick={() =>
                onSearchChange({
                  entityType: undefined,
                  entityId: undefined,
                  actor: undefined,
                  from: undefined,
                  to: undefined,
                  page: 1,
                })
              }
            >
              {intl.formatMessage({ id: 'audit.filter.reset' })}
            </Button>
          </Box>
          <DataTable<AuditEntry>
            labelId="audit.list.title"
            columns={columns}
            rows={audit.data?.data}
            getRowId={(row) => row.id}
            total={audit.data?.total}
            perPage={audit.data?.per_page}
            page={search.page}
            onPageChange={(page) => onSearchChange({ page })}
            emptyMessageId="audit.list.empty"
            isFetching={audit.isFetching}
            size="small"
          />
        </CardContent>
      </Card>
    </Stack>
  );
}
