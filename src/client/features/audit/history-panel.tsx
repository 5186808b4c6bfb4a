import History from '@mui/icons-material/History';
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { DataTable, pagedRows } from '#client/components/data-table/index.ts';
import { ListPanel } from '#client/components/list/index.ts';
import { TextLink } from '#client/components/router-link.tsx';
import { useAbilities } from '#client/lib/session.ts';
import type { AuditEntityType, AuditEntry } from '#shared/api/index.ts';
import { useAudit } from './api/audit';
import { auditColumns } from './components/audit-columns';

/**
 * The history of one customer, user or device: its audit entries, newest first, with a link to the
 * audit view filtered to it. Shown only to those who may see the audit trail (canSeeAudit).
 */
export function HistoryPanel({ entityType, entityId }: { entityType: AuditEntityType; entityId: number }) {
  const intl = useIntl();
  const allowed = useAbilities().canSeeAudit === true;
  const [page, setPage] = useState(1);
  const history = useAudit({ entityType, entityId, page }, allowed);
  const columns = useMemo(() => auditColumns(intl, false), [intl]);
  if (!allowed) return null;
  return (
    <ListPanel
      headingId={`history-${entityType}-${entityId}`}
      icon={<History color="action" />}
      titleId="audit.history.title"
      link={
        <TextLink to="/audit" search={{ entityType, entityId, page: 1 }}>
          {intl.formatMessage({ id: 'audit.history.open' })}
        </TextLink>
      }
    >
      <DataTable<AuditEntry>
        labelId="audit.history.title"
        columns={columns}
        {...pagedRows(history)}
        getRowId={(row) => row.id}
        page={page}
        onPageChange={setPage}
        emptyMessageId="audit.history.empty"
        size="small"
      />
    </ListPanel>
  );
}
