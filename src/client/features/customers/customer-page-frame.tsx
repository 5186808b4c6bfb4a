import ArrowBack from '@mui/icons-material/ArrowBack';
import { Badge, Box, Button, Stack, Tab, type TabProps, Tabs, Typography } from '@mui/material';
import { createLink, useCanGoBack, useLocation, useNavigate, useRouter } from '@tanstack/react-router';
import type { ReactNode, Ref } from 'react';
import { useIntl } from 'react-intl';
import type { CustomerData } from './api/customers';

type TabKey = 'anagraphic' | 'users' | 'devices' | 'reports';

function TabAnchor(props: Omit<TabProps<'a'>, 'component'> & { ref?: Ref<HTMLAnchorElement> }) {
  return <Tab component="a" {...props} />;
}
const TabLink = createLink(TabAnchor);

function activeTab(pathname: string): TabKey {
  if (/^\/customers\/[^/]+\/users(\/|$)/.test(pathname)) return 'users';
  if (/^\/customers\/[^/]+\/devices(\/|$)/.test(pathname)) return 'devices';
  if (/^\/customers\/[^/]+\/reports(\/|$)/.test(pathname)) return 'reports';
  return 'anagraphic';
}

function CountLabel({ labelId, count }: { labelId: string; count: number | undefined }) {
  const intl = useIntl();
  return (
    <Badge
      badgeContent={count ?? 0}
      showZero
      color="primary"
      max={9999}
      sx={{ '& .MuiBadge-badge': { right: -14, top: 2 } }}
    >
      <span>{intl.formatMessage({ id: labelId })}</span>
    </Badge>
  );
}

/** Back: the previous page of the app when there is one (keeps the list's page and sort), else the list. */
function BackButton() {
  const intl = useIntl();
  const router = useRouter();
  const canGoBack = useCanGoBack();
  const navigate = useNavigate();
  return (
    <Button
      startIcon={<ArrowBack />}
      onClick={() => (canGoBack ? router.history.back() : void navigate({ to: '/customers' }))}
    >
      {intl.formatMessage({ id: 'customers.page.back' })}
    </Button>
  );
}

/**
 * docs/product.md §2 Customer page: back button, heading with the name and code (or "insert a new customer"),
 * tabs anagraphic / users / devices with count badges; no tabs for a new customer.
 */
export function CustomerPageFrame({ customer, children }: { customer?: CustomerData; children: ReactNode }) {
  const intl = useIntl();
  const { pathname } = useLocation();
  const id = customer?.id;
  return (
    <Stack spacing={2}>
      <Box>
        <BackButton />
      </Box>
      <Box>
        {customer ? (
          <Typography variant="h4" component="h1">
            {customer.name}{' '}
            <Typography component="span" variant="h6" color="text.secondary">
              {intl.formatMessage({ id: 'customers.page.code' }, { id: customer.id })}
            </Typography>
          </Typography>
        ) : (
          <Typography variant="h4" component="h1">
            {intl.formatMessage({ id: 'customers.page.new' })}
          </Typography>
        )}
      </Box>
      {id && (
        <Tabs
          value={activeTab(pathname)}
          aria-label={intl.formatMessage({ id: 'customers.page.tabs' })}
          sx={{
            borderBottom: 1,
            borderColor: 'divider',
            // On a phone the four tabs do not fit one row: they wrap (no action out of
            // reach sideways), and the selected one is underlined in place of the sliding indicator.
            '& .MuiTabs-list': { flexWrap: { xs: 'wrap', sm: 'nowrap' } },
            '& .MuiTabs-indicator': { display: { xs: 'none', sm: 'block' } },
            '& .MuiTab-root.Mui-selected': { boxShadow: { xs: 'inset 0 -2px 0 currentColor', sm: 'none' } },
          }}
        >
          <TabLink
            value="anagraphic"
            to="/customers/$id"
            params={{ id }}
            label={intl.formatMessage({ id: 'customers.tabs.anagraphic' })}
          />
          <TabLink
            value="users"
            to="/customers/$id/users"
            params={{ id }}
            label={<CountLabel labelId="customers.tabs.users" count={customer?.users_count} />}
            sx={{ pr: 4 }}
          />
          <TabLink
            value="devices"
            to="/customers/$id/devices"
            params={{ id }}
            label={<CountLabel labelId="customers.tabs.devices" count={customer?.devices_count} />}
            sx={{ pr: 4 }}
          />
          <TabLink
            value="reports"
            to="/customers/$id/reports"
            params={{ id }}
            label={intl.formatMessage({ id: 'customers.tabs.reports' })}
          />
        </Tabs>
      )}
      <Box>{children}</Box>
    </Stack>
  );
}
