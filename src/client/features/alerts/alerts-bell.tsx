import NotificationsIcon from '@mui/icons-material/Notifications';
import { Badge, IconButton } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useIntl } from 'react-intl';
import { useUnreadAlerts } from './api/alerts';

// The menu brings dates and the comment form (date-fns, formik, yup): fetched when the pointer or focus
// first reaches the bell, not with the top bar of every first page.
const loadMenu = () => import('./alerts-bell-menu');
const AlertsBellMenu = lazy(loadMenu);

/** The top bar's bell: how many alerts are open and unacknowledged; opens the menu of the latest. */
export function AlertsBell() {
  const intl = useIntl();
  const unread = useUnreadAlerts().data?.unread ?? 0;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Once opened, the menu stays mounted: its acknowledge dialog outlives the menu's closing.
  const [opened, setOpened] = useState(false);
  const label = intl.formatMessage({ id: 'alerts.bell.label' }, { count: unread });
  const prefetch = () => void loadMenu();

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={label}
        title={label}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setOpened(true);
        }}
      >
        <Badge badgeContent={unread} color="error" max={99} data-testid="alerts-bell-count">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      {opened && (
        <Suspense fallback={null}>
          <AlertsBellMenu anchor={anchor} label={label} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
