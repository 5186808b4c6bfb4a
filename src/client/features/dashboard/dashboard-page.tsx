import { Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import { TextLink } from '#client/components/router-link.tsx';
import { useAbilities, useSession } from '#client/lib/session.ts';
import { type DashboardData, useDashboard } from './api/dashboard';
import { BATCH_LEVEL_COLOR, type BatchLevel, batchLevel } from './batch-level';
import { ChainCostsCard } from './chain-costs-card';

type CountKey = 'customers' | 'users' | 'baths' | 'plugs';

const COUNT_CARDS: Array<{ key: CountKey; label: { id: string } }> = [
  { key: 'customers', label: { id: 'dashboard.cards.customers' } },
  { key: 'users', label: { id: 'dashboard.cards.users' } },
  { key: 'baths', label: { id: 'dashboard.cards.baths' } },
  { key: 'plugs', label: { id: 'dashboard.cards.plugs' } },
];

const LEVEL_LABEL: Record<BatchLevel, { id: string }> = {
  ok: { id: 'dashboard.legend.ok' },
  warning: { id: 'dashboard.legend.warning' },
  danger: { id: 'dashboard.legend.danger' },
};

const grid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
} as const;

type Batch = NonNullable<DashboardData['disposables']>[number];

function BatchCard({ batch }: { batch: Batch }) {
  const intl = useIntl();
  const level = batchLevel(batch.sterilization_count, batch.batch_quantity);
  const color = BATCH_LEVEL_COLOR[level];
  const rows: Array<[{ id: string }, string | number]> = [
    [{ id: 'dashboard.batch.lot_code' }, batch.lot_code],
    [{ id: 'dashboard.batch.lot_progressive' }, batch.lot_progressive],
    [{ id: 'dashboard.batch.device_serial' }, batch.device?.device_serial ?? '—'],
  ];
  return (
    <Card
      component="article"
      data-level={level}
      aria-label={intl.formatMessage(
        { id: 'dashboard.batch.label' },
        { lot: batch.lot_code, progressive: batch.lot_progressive },
      )}
      sx={{ borderLeft: 6, borderColor: `${color}.main` }}
    >
      <CardContent>
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}
        >
          {rows.map(([label, value]) => (
            <Box key={label.id} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {intl.formatMessage(label)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 500 }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        <Box sx={{ mt: 1.5, display: 'flex', alignItems: 'baseline', gap: 1 }}>
          <Typography variant="h5" component="p" sx={{ color: `${color}.main`, fontWeight: 700 }}>
            {batch.sterilization_count}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {intl.formatMessage({ id: 'dashboard.batch.count' }, { quantity: batch.batch_quantity })}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}

/**
 * Devices whose records miss progressive ids (per owner: a clinic counts only its own records), with a
 * link to those devices' records in the list (anomaly filter), where each device's page is one click on.
 */
function DevicesWithGapsCard({ count }: { count: number }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: 'dashboard.cards.devices_with_gaps' });
  return (
    <Card
      component="section"
      aria-label={label}
      data-testid="dashboard-devices-with-gaps"
      sx={count > 0 ? { borderLeft: 6, borderColor: 'warning.main' } : undefined}
    >
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h4" component="p" sx={{ fontWeight: 700 }}>
          {intl.formatNumber(count)}
        </Typography>
        {count > 0 && (
          <TextLink to="/sterilizations" search={{ anomaly: 'gaps', page: 1 }} variant="body2">
            {intl.formatMessage({ id: 'dashboard.cards.devices_with_gaps_link' })}
          </TextLink>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Records whose lot had no valid certificate when they were received: a link to exactly
 * those records in the sterilization list.
 */
function LotComplianceCard({ figures }: { figures: DashboardData['lot_compliance'] }) {
  const intl = useIntl();
  const flagged = figures.flagged_records > 0;
  return (
    <Card
      component="section"
      aria-labelledby="dashboard-lots-title"
      data-testid="dashboard-lot-compliance"
      sx={{ borderLeft: 6, borderColor: flagged ? 'error.main' : 'success.main' }}
    >
      <CardContent>
        <Typography id="dashboard-lots-title" variant="h6" component="h2">
          {intl.formatMessage({ id: 'dashboard.lots.title' })}
        </Typography>
        <Typography variant="body1" sx={{ mt: 1 }}>
          {flagged
            ? intl.formatMessage(
                { id: 'dashboard.lots.flagged' },
                { records: figures.flagged_records, lots: figures.flagged_lots },
              )
            : intl.formatMessage({ id: 'dashboard.lots.none' })}
        </Typography>
        {flagged && (
          <TextLink to="/sterilizations" search={{ lotStatus: 'flagged' }} variant="body2">
            {intl.formatMessage({ id: 'dashboard.lots.show' })}
          </TextLink>
        )}
      </CardContent>
    </Card>
  );
}

function Legend() {
  const intl = useIntl();
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap', alignItems: 'center' }}
      aria-label={intl.formatMessage({ id: 'dashboard.legend.title' })}
      role="list"
    >
      <Typography variant="body2" color="text.secondary" sx={{ mr: 1 }}>
        {intl.formatMessage({ id: 'dashboard.legend.title' })}
      </Typography>
      {(Object.keys(LEVEL_LABEL) as BatchLevel[]).map((level) => (
        <Chip
          key={level}
          role="listitem"
          size="small"
          color={BATCH_LEVEL_COLOR[level]}
          label={intl.formatMessage(LEVEL_LABEL[level])}
        />
      ))}
    </Stack>
  );
}

export function DashboardPage() {
  const intl = useIntl();
  const current = useSession();
  const { data, isPending, isError } = useDashboard();
  // The maker's figures only: a clinic or customer care never asks for them (the server refuses anyway).
  const seesChainCosts = useAbilities().canSeeChainCosts === true;
  const name = current?.user.name?.trim() || intl.formatMessage({ id: 'layout.user.fallback' });

  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1">
        {intl.formatMessage({ id: 'dashboard.title' }, { name })}
      </Typography>
      {isPending && <PagePending />}
      {isError && <PageError />}
      {data && (
        <>
          <Box component="section" aria-label={intl.formatMessage({ id: 'dashboard.cards.title' })} sx={grid}>
            {COUNT_CARDS.filter(({ key }) => data[key] !== null && data[key] !== undefined).map(
              ({ key, label }) => (
                <Card key={key} component="section" aria-label={intl.formatMessage(label)}>
                  <CardContent>
                    <Typography variant="body2" color="text.secondary">
                      {intl.formatMessage(label)}
                    </Typography>
                    <Typography variant="h4" component="p" sx={{ fontWeight: 700 }}>
                      {intl.formatNumber(data[key] ?? 0)}
                    </Typography>
                  </CardContent>
                </Card>
              ),
            )}
            <DevicesWithGapsCard count={data.devices_with_gaps} />
          </Box>
          <LotComplianceCard figures={data.lot_compliance} />
          {seesChainCosts && <ChainCostsCard />}
          {data.disposables && (
            <Box component="section" aria-labelledby="dashboard-batches-title">
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                spacing={1}
                sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
              >
                <Typography id="dashboard-batches-title" variant="h6" component="h2">
                  {intl.formatMessage({ id: 'dashboard.batches.title' })}
                </Typography>
                <Legend />
              </Stack>
              {data.disposables.length === 0 ? (
                <Typography color="text.secondary">
                  {intl.formatMessage({ id: 'dashboard.batches.empty' })}
                </Typography>
              ) : (
                <Box sx={grid}>
                  {data.disposables.map((batch) => (
                    <BatchCard key={batch.id} batch={batch} />
                  ))}
                </Box>
              )}
            </Box>
          )}
        </>
      )}
    </Stack>
  );
}
