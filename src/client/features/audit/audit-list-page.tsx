import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { DateRangeFilter } from '#client/components/data-table/date-filter.tsx';
import { DataTable, pagedRows } from '#client/components/data-table/index.ts';
import { perPagePatch } from '#client/components/data-table/list-search.ts';
import { FilterBar, ListPage, SelectFilter, TextFilter } from '#client/components/list/index.ts';
import type { AuditEntry } from '#shared/api/index.ts';
import { useAudit } from './api/audit';
import { auditColumns } from './components/audit-columns';
import { AUDIT_ENTITY_TYPES, type AuditListSearch } from './search';

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
    <ListPage times titleId="audit.list.title">
      <FilterBar
        labelId="audit.filter.label"
        filtered={filtered}
        onReset={() =>
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
        <SelectFilter
          name="entityType"
          labelId="audit.filter.entity_type"
          value={search.entityType}
          options={AUDIT_ENTITY_TYPES.map((type) => ({
            value: type,
            label: intl.formatMessage({ id: `audit.entity.${type}` }),
          }))}
          allLabelId="audit.filter.all_entities"
          onChange={(value) => {
            const entityType = AUDIT_ENTITY_TYPES.find((type) => type === value);
            onSearchChange({ entityType, entityId: undefined, page: 1 });
          }}
        />
        <TextFilter
          name="entityId"
          labelId="audit.filter.entity_id"
          numeric
          width={160}
          value={search.entityId === undefined ? undefined : String(search.entityId)}
          disabled={search.entityType === undefined}
          disabledHintId="audit.filter.entity_id_hint"
          onChange={(text) => {
            const id = text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
            onSearchChange({ entityId: id !== undefined && id > 0 ? id : undefined, page: 1 });
          }}
        />
        <TextFilter
          name="actor"
          labelId="audit.filter.actor"
          value={search.actor}
          onChange={(actor) => onSearchChange({ actor, page: 1 })}
        />
        <DateRangeFilter
          names={['from', 'to']}
          labelIds={['audit.filter.from', 'audit.filter.to']}
          value={[search.from, search.to]}
          onChange={([from, to]) => onSearchChange({ from, to, page: 1 })}
        />
      </FilterBar>
      <DataTable<AuditEntry>
        labelId="audit.list.title"
        columns={columns}
        {...pagedRows(audit)}
        getRowId={(row) => row.id}
        page={search.page}
        onPageChange={(page) => onSearchChange({ page })}
        onPerPageChange={(perPage) => onSearchChange(perPagePatch(perPage))}
        listName="audit"
        columnChoice={search.columns}
        onColumnChoiceChange={(columns) => onSearchChange({ columns })}
        emptyMessageId="audit.list.empty"
        size="small"
      />
    </ListPage>
  );
}
