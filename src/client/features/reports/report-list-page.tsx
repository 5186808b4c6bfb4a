import Add from '@mui/icons-material/Add';
import Draw from '@mui/icons-material/Draw';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import Receipt from '@mui/icons-material/Receipt';
import { Box, Button, Chip, Stack, Tooltip, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import {
  type DataColumn,
  DataTable,
  pagedRows,
  useListControls,
} from '#client/components/data-table/index.ts';
import { FilterBar, ListPage, SelectFilter } from '#client/components/list/index.ts';
import { formatDateTime } from '#client/lib/dates.ts';
import { useAbilities } from '#client/lib/session.ts';
import { type Report, type ReportVersion, useDownloadReportFile, useReports } from './api/reports';
import { GenerateReportDialog } from './components/generate-report-dialog';
import { SignReportDialog } from './components/sign-report-dialog';
import { REPORT_LANGUAGES, REPORT_STATUSES, type ReportListSearch, reportsQuery } from './search';

const STATUS_COLOR = { draft: 'default', reviewed: 'info', approved: 'success' } as const;
const ANCHOR_COLOR = {
  WAITING: 'default',
  PENDING: 'default',
  SENT: 'info',
  MINED: 'success',
  FINAL: 'success',
  FAILED: 'error',
} as const;

function VersionLine({
  customerId,
  reportId,
  version,
}: {
  customerId: number;
  reportId: number;
  version: ReportVersion;
}) {
  const intl = useIntl();
  const download = useDownloadReportFile(customerId);
  const anchored = version.anchoring.transaction_hash !== null;
  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
      data-testid={`report-${reportId}-v${version.version}`}
    >
      <Typography variant="body2">
        {intl.formatMessage(
          { id: 'reports.list.signature' },
          {
            version: version.version,
            meaning: intl.formatMessage({ id: `reports.meaning.${version.meaning}` }),
            name: version.signer_name,
            at: formatDateTime(version.signed_at),
          },
        )}
      </Typography>
      <Tooltip title={intl.formatMessage({ id: `reports.anchoring.${version.anchoring.status}.hint` })}>
        <Chip
          size="small"
          variant="outlined"
          color={ANCHOR_COLOR[version.anchoring.status]}
          label={intl.formatMessage({ id: `reports.anchoring.${version.anchoring.status}` })}
        />
      </Tooltip>
      <Button
        size="small"
        startIcon={<PictureAsPdf />}
        disabled={download.isPending}
        onClick={() => download.mutate({ reportId, version: version.version, kind: 'pdf' })}
      >
        {intl.formatMessage({ id: 'reports.list.download_version' }, { version: version.version })}
      </Button>
      {anchored && (
        <Button
          size="small"
          startIcon={<Receipt />}
          disabled={download.isPending}
          onClick={() => download.mutate({ reportId, version: version.version, kind: 'receipt' })}
        >
          {intl.formatMessage({ id: 'reports.list.receipt' }, { version: version.version })}
        </Button>
      )}
    </Box>
  );
}

/**
 * A customer's compliance reports: page, sort and filters in the URL; each report's
 * signatures with their anchoring, the draft and every signed version to download; generate, sign.
 */
export function ReportListPage({
  customerId,
  search,
  onSearchChange,
  titleId = 'reports.list.title',
}: {
  customerId: number;
  search: ReportListSearch;
  onSearchChange: (patch: Partial<ReportListSearch>) => void;
  titleId?: string;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const list = useListControls(search, onSearchChange, 'reports');
  const reports = useReports(customerId, reportsQuery(search));
  const download = useDownloadReportFile(customerId);
  const [generating, setGenerating] = useState(false);
  const [signing, setSigning] = useState<Report | null>(null);
  const canSign = abilities.canSignReports === true;

  const columns = useMemo<DataColumn<Report>[]>(
    () => [
      { id: 'id', headerId: 'reports.list.id', cell: (row) => `#${row.id}` },
      {
        id: 'period',
        headerId: 'reports.list.period',
        sortKey: 'period_from',
        cell: (row) =>
          intl.formatMessage(
            { id: 'reports.list.period_value' },
            { from: row.period_from, to: row.period_to },
          ),
      },
      {
        id: 'language',
        headerId: 'reports.list.language',
        cell: (row) => intl.formatMessage({ id: `reports.language.${row.language}` }),
      },
      {
        id: 'created',
        headerId: 'reports.list.created',
        sortKey: 'created_at',
        cell: (row) => (
          <Stack>
            <span>{formatDateTime(row.created_at)}</span>
            {row.created_by && (
              <Typography variant="caption" color="text.secondary">
                {row.created_by.name}
              </Typography>
            )}
          </Stack>
        ),
      },
      {
        id: 'status',
        headerId: 'reports.list.status',
        cell: (row) => (
          <Chip
            size="small"
            color={STATUS_COLOR[row.status]}
            label={intl.formatMessage({ id: `reports.status.${row.status}` })}
          />
        ),
      },
      {
        id: 'signatures',
        headerId: 'reports.list.signatures',
        cell: (row) =>
          row.versions.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {intl.formatMessage({ id: 'reports.list.unsigned' })}
            </Typography>
          ) : (
            <Stack spacing={0.5}>
              {row.versions.map((version) => (
                <VersionLine
                  key={version.version}
                  customerId={customerId}
                  reportId={row.id}
                  version={version}
                />
              ))}
            </Stack>
          ),
      },
      {
        id: 'actions',
        headerId: 'reports.list.actions',
        align: 'right',
        cell: (row) => (
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button
              size="small"
              startIcon={<PictureAsPdf />}
              disabled={download.isPending}
              onClick={() => download.mutate({ reportId: row.id, version: 'draft', kind: 'pdf' })}
            >
              {intl.formatMessage({ id: 'reports.list.draft' })}
            </Button>
            {canSign && row.status !== 'approved' && (
              <Button size="small" variant="outlined" startIcon={<Draw />} onClick={() => setSigning(row)}>
                {intl.formatMessage({ id: 'reports.list.sign' }, { id: row.id })}
              </Button>
            )}
          </Stack>
        ),
      },
    ],
    [intl, customerId, canSign, download],
  );

  const filtered = search.status !== undefined || search.language !== undefined;
  return (
    <ListPage
      times
      titleId={titleId}
      action={
        <Button variant="contained" startIcon={<Add />} onClick={() => setGenerating(true)}>
          {intl.formatMessage({ id: 'reports.list.generate' })}
        </Button>
      }
    >
      <FilterBar
        labelId="reports.filters.label"
        filtered={filtered}
        onReset={() => onSearchChange({ status: undefined, language: undefined, page: 1 })}
      >
        <SelectFilter
          name="status"
          labelId="reports.filters.status"
          allLabelId="reports.filters.all_statuses"
          value={search.status}
          options={REPORT_STATUSES.map((status) => ({
            value: status,
            label: intl.formatMessage({ id: `reports.status.${status}` }),
          }))}
          onChange={(value) => onSearchChange({ status: value as ReportListSearch['status'], page: 1 })}
        />
        <SelectFilter
          name="language"
          labelId="reports.filters.language"
          allLabelId="reports.filters.all_languages"
          value={search.language}
          options={REPORT_LANGUAGES.map((language) => ({
            value: language,
            label: intl.formatMessage({ id: `reports.language.${language}` }),
          }))}
          onChange={(value) => onSearchChange({ language: value as ReportListSearch['language'], page: 1 })}
        />
      </FilterBar>
      <DataTable<Report>
        labelId={titleId}
        columns={columns}
        {...pagedRows(reports)}
        getRowId={(row) => row.id}
        {...list}
        emptyMessageId="reports.list.empty"
      />
      {generating && (
        <GenerateReportDialog customerId={customerId} open onClose={() => setGenerating(false)} />
      )}
      <SignReportDialog customerId={customerId} report={signing} onClose={() => setSigning(null)} />
    </ListPage>
  );
}
