import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import {
  Alert,
  Box,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useIntl } from 'react-intl';
import { ListPanel } from '#client/components/list/index.ts';
import { TextLink } from '#client/components/router-link.tsx';
import { formatDateTime } from '#client/lib/dates.ts';
import { useAbilities } from '#client/lib/session.ts';
import type { DeviceGaps } from '#shared/api/index.ts';
import { useCustomerDevice, useDeviceGaps } from '../api/devices';

function Shown({ shown, total }: { shown: number; total: number }) {
  const intl = useIntl();
  if (shown >= total) return null;
  return (
    <Typography variant="caption" color="text.secondary">
      {intl.formatMessage({ id: 'devices.gaps.shown' }, { shown, total })}
    </Typography>
  );
}

function Ranges({ gaps, withCustomer }: { gaps: DeviceGaps; withCustomer: boolean }) {
  const intl = useIntl();
  if (gaps.ranges_total === 0) {
    return <Typography color="text.secondary">{intl.formatMessage({ id: 'devices.gaps.none' })}</Typography>;
  }
  return (
    <Box>
      <Typography data-testid="device-gaps-summary">
        {intl.formatMessage(
          { id: 'devices.gaps.summary' },
          { missing: gaps.missing_count, ranges: gaps.ranges_total },
        )}
      </Typography>
      <Table size="small" aria-label={intl.formatMessage({ id: 'devices.gaps.ranges' })}>
        <TableHead>
          <TableRow>
            <TableCell>{intl.formatMessage({ id: 'devices.gaps.from' })}</TableCell>
            <TableCell>{intl.formatMessage({ id: 'devices.gaps.to' })}</TableCell>
            <TableCell align="right">{intl.formatMessage({ id: 'devices.gaps.count' })}</TableCell>
            {withCustomer && <TableCell>{intl.formatMessage({ id: 'devices.gaps.customer' })}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {gaps.ranges.map((range) => (
            <TableRow key={`${range.customer_id}-${range.first_missing}`}>
              <TableCell>{range.first_missing}</TableCell>
              <TableCell>{range.last_missing}</TableCell>
              <TableCell align="right">{intl.formatNumber(range.count)}</TableCell>
              {withCustomer && <TableCell>{range.customer_name}</TableCell>}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Shown shown={gaps.ranges.length} total={gaps.ranges_total} />
    </Box>
  );
}

function LateRecords({ gaps, withCustomer }: { gaps: DeviceGaps; withCustomer: boolean }) {
  const intl = useIntl();
  if (gaps.out_of_order_total === 0) {
    return (
      <Typography color="text.secondary">{intl.formatMessage({ id: 'devices.gaps.late_none' })}</Typography>
    );
  }
  return (
    <Box>
      <Typography data-testid="device-late-summary">
        {intl.formatMessage({ id: 'devices.gaps.late_summary' }, { count: gaps.out_of_order_total })}
      </Typography>
      <Table size="small" aria-label={intl.formatMessage({ id: 'devices.gaps.late_title' })}>
        <TableHead>
          <TableRow>
            <TableCell>{intl.formatMessage({ id: 'devices.gaps.progressive' })}</TableCell>
            <TableCell>{intl.formatMessage({ id: 'devices.gaps.received' })}</TableCell>
            {withCustomer && <TableCell>{intl.formatMessage({ id: 'devices.gaps.customer' })}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {gaps.out_of_order.map((record) => (
            <TableRow key={record.id}>
              <TableCell>{record.progressive_id}</TableCell>
              <TableCell>{formatDateTime(record.received_ts)}</TableCell>
              {withCustomer && <TableCell>{record.customer_name}</TableCell>}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Shown shown={gaps.out_of_order.length} total={gaps.out_of_order_total} />
    </Box>
  );
}

/**
 * The device page's gaps section: the progressive ids the device skipped and the records that came
 * after a higher one, per owner (a clinic sees only its own records' sequence; staff see each owner's).
 */
export function DeviceGapsPanel({ customerId, deviceId }: { customerId: number; deviceId: number }) {
  const intl = useIntl();
  const staff = useAbilities().canSeeAllSterilizations === true;
  const query = useDeviceGaps(deviceId);
  // Beside the device's own page only: a device the page cannot show (not found) has no section.
  const device = useCustomerDevice(customerId, deviceId);
  if (!device.isSuccess) return null;
  return (
    <ListPanel
      headingId={`device-gaps-${deviceId}`}
      icon={<ReportProblemOutlined color="action" />}
      titleId="devices.gaps.title"
      link={
        query.data &&
        query.data.out_of_order_total > 0 && (
          <TextLink to="/sterilizations" search={{ customerId, deviceId, anomaly: 'out_of_order', page: 1 }}>
            {intl.formatMessage({ id: 'devices.gaps.list_link' })}
          </TextLink>
        )
      }
    >
      {query.isPending && <CircularProgress size={24} />}
      {query.isError && <Alert severity="error">{intl.formatMessage({ id: 'devices.gaps.error' })}</Alert>}
      {query.data && (
        <Stack spacing={2}>
          {!staff && (
            <Typography variant="body2" color="text.secondary">
              {intl.formatMessage({ id: 'devices.gaps.scope_own' })}
            </Typography>
          )}
          <Ranges gaps={query.data} withCustomer={staff} />
          <Box>
            <Typography variant="subtitle1" component="h3">
              {intl.formatMessage({ id: 'devices.gaps.late_title' })}
            </Typography>
            <LateRecords gaps={query.data} withCustomer={staff} />
          </Box>
        </Stack>
      )}
    </ListPanel>
  );
}
