import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, IconButton, Toolbar, Typography, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { Link, Outlet } from '@tanstack/react-router';
import { type ComponentType, lazy, type MouseEvent, Suspense, useState } from 'react';
import { useIntl } from 'react-intl';
import { useLiveUpdates } from '#client/lib/live-updates.ts';
import { sessionModules, useSession } from '#client/lib/session.ts';
import { useFocusOnNavigate } from './focus-on-navigate';
import { LanguageSwitch } from './language-switch';
import { MainMenu } from './main-menu';
import { UserMenu } from './user-menu';

const DRAWER_WIDTH = 248;
const PhoneMenu = lazy(() => import('./phone-menu'));
const MAIN_ID = 'main-content';

/**
 * First in the tab order, shown only while focused: jumps over the top bar and the menu to the page.
 * It moves the focus itself instead of following the #fragment, which would add a history entry.
 */
function SkipLink() {
  const intl = useIntl();
  return (
    <Box
      component="a"
      href={`#${MAIN_ID}`}
      onClick={(event: MouseEvent) => {
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: (t) => t.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        boxShadow: 3,
        bgcolor: 'background.paper',
        color: 'primary.main',
        fontWeight: 600,
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      {intl.formatMessage({ id: 'layout.skip_to_content' })}
    </Box>
  );
}

/**
 * Top bar (always) + left menu (logged in only) + the page. `Bell` is the logged-in user's alerts
 * bell, given by the root route (a feature: the layout does not import features).
 */
export function AppShell({ Bell }: { Bell?: ComponentType }) {
  const intl = useIntl();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const current = useSession();
  useLiveUpdates();
  useFocusOnNavigate(MAIN_ID);
  const [mobileOpen, setMobileOpen] = useState(false);
  const loggedIn = current !== null;
  const showDrawer = loggedIn;
  const menu = (
    <MainMenu
      modules={sessionModules(current)}
      showAudit={current?.user.abilities.canSeeAudit === true}
      showOutbox={current?.user.abilities.canSeeMailOutbox === true}
      onNavigate={wide ? undefined : () => setMobileOpen(false)}
    />
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <AppBar position="fixed" sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}>
        <Toolbar sx={{ gap: 1 }}>
          {showDrawer && !wide && (
            <IconButton
              color="inherit"
              edge="start"
              aria-label={intl.formatMessage({ id: 'layout.menu.open' })}
              onClick={() => setMobileOpen(true)}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Box
            component={Link}
            to="/"
            aria-label={intl.formatMessage({ id: 'layout.home' })}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none' }}
          >
            <Box component="img" src="/logo.svg" alt="" sx={{ width: 36, height: 36 }} />
            <Typography variant="h6" component="span" sx={{ fontWeight: 700, letterSpacing: 0.5 }}>
              uvtrace
            </Typography>
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <LanguageSwitch />
          {loggedIn && Bell && sessionModules(current).includes('alerts') && <Bell />}
          {loggedIn && <UserMenu name={current.user.name} />}
        </Toolbar>
      </AppBar>

      {showDrawer && wide && (
        // Docked: what a permanent drawer renders, a fixed column under the top bar.
        <Box sx={{ width: DRAWER_WIDTH, flexShrink: 0 }}>
          <Box
            sx={{
              position: 'fixed',
              top: 0,
              left: 0,
              width: DRAWER_WIDTH,
              height: '100%',
              overflowY: 'auto',
              bgcolor: 'background.paper',
              borderRight: 1,
              borderColor: 'divider',
              zIndex: 'drawer',
            }}
          >
            <Toolbar />
            {menu}
          </Box>
        </Box>
      )}
      {showDrawer && !wide && (
        <Suspense fallback={null}>
          <PhoneMenu
            open={mobileOpen}
            onClose={() => setMobileOpen(false)}
            label={intl.formatMessage({ id: 'layout.menu.label' })}
            width={DRAWER_WIDTH}
          >
            {menu}
          </PhoneMenu>
        </Suspense>
      )}

      <Box
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, md: 3 }, '&:focus': { outline: 'none' } }}
      >
        <Toolbar />
        <Outlet />
      </Box>
    </Box>
  );
}
