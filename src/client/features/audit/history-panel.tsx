import History from '@mui/icons-material/History';
import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import type { AuditEntityType, AuditEntry } from '../../../shared/api/index.ts';
import { DataTable, pagedRows } from '../../components/data-table';
import { TextLink } from '../../components/router-link';
import { useAbilities } from '../../lib/session';
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
  const titleId = `history-${entityType}-${entityId}`;
  return (
    <Card component="section" aria-labelledby={titleId}>
      <CardContent>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <History color="action" />
            <Typography variant="h6" component="h2" id={titleId}>
              {intl.formatMessage({ id: 'audit.history.title' })}
            </Typography>
          </Box>
          <TextLink to="/audit" search={{ entityType, entityId, page: 1 }}>
            {intl.formatMessage({ id: 'audit.history.open' })}
          </TextLink>
        </Stack>
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
      </CardContent>
    </Card>
  );
}
