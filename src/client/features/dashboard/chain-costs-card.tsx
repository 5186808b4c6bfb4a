/**
 * What anchoring costs the maker (SUPER_ADMIN and ADMIN: canSeeChainCosts), month by month over the last
 * six: blocks, transactions, records, gas, the fee paid in ETH and the fee per record in gwei, from what the
 * anchor worker recorded for each mined block (docs/integrity.md §8; the knobs: docs/benchmarks.md).
 */
import {
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useIntl } from 'react-intl';
import { type ChainCosts, useChainCosts } from './api/chain-costs';

const MONTHS = 6;

type Figures = ChainCosts['total'];

export function ChainCostsCard() {
  const intl = useIntl();
  const { data, isError } = useChainCosts(MONTHS, true);
  const eth = (wei: string) =>
    intl.formatNumber(Number(wei) / 1e18, { maximumSignificantDigits: 4, minimumFractionDigits: 0 });
  const gwei = (wei: string | null) =>
    wei === null ? '—' : intl.formatNumber(Number(wei) / 1e9, { maximumSignificantDigits: 4 });
  const monthName = (month: string) =>
    intl.formatDate(new Date(`${month}-01T00:00:00Z`), { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const cells = (figures: Figures) => [
    intl.formatNumber(figures.blocks),
    intl.formatNumber(figures.transactions),
    intl.formatNumber(figures.records),
    intl.formatNumber(figures.gas_used),
    eth(figures.fee_paid_wei),
    gwei(figures.fee_per_record_wei),
  ];
  const headers = ['month', 'blocks', 'transactions', 'records', 'gas', 'fee', 'per_record'];
  return (
    <Card component="section" aria-labelledby="dashboard-costs-title" data-testid="dashboard-chain-costs">
      <CardContent>
        <Typography id="dashboard-costs-title" variant="h6" component="h2">
          {intl.formatMessage({ id: 'dashboard.costs.title' }, { network: data?.network ?? '' })}
        </Typography>
        {isError && (
          <Typography color="error">{intl.formatMessage({ id: 'dashboard.costs.error' })}</Typography>
        )}
        {data && (
          <Table size="small" sx={{ mt: 1 }}>
            <TableHead>
              <TableRow>
                {headers.map((header) => (
                  <TableCell key={header} align={header === 'month' ? 'left' : 'right'}>
                    {intl.formatMessage({ id: `dashboard.costs.${header}` })}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.months.map((month) => (
                <TableRow key={month.month} data-month={month.month}>
                  <TableCell component="th" scope="row">
                    {monthName(month.month)}
                  </TableCell>
                  {cells(month).map((value, index) => (
                    <TableCell key={headers[index + 1]} align="right">
                      {value}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
              <TableRow data-month="total">
                <TableCell component="th" scope="row" sx={{ fontWeight: 700 }}>
                  {intl.formatMessage({ id: 'dashboard.costs.total' })}
                </TableCell>
                {cells(data.total).map((value, index) => (
                  <TableCell key={headers[index + 1]} align="right" sx={{ fontWeight: 700 }}>
                    {value}
                  </TableCell>
                ))}
              </TableRow>
            </TableBody>
          </Table>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {intl.formatMessage({ id: 'dashboard.costs.note' })}
        </Typography>
      </CardContent>
    </Card>
  );
}
