import Assignment from '@mui/icons-material/Assignment';
import Business from '@mui/icons-material/Business';
import Dashboard from '@mui/icons-material/Dashboard';
import Devices from '@mui/icons-material/Devices';
import FactCheck from '@mui/icons-material/FactCheck';
import Group from '@mui/icons-material/Group';
import Inventory2 from '@mui/icons-material/Inventory2';
import ManageSearch from '@mui/icons-material/ManageSearch';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import Outbox from '@mui/icons-material/Outbox';
import Person from '@mui/icons-material/Person';
import Sanitizer from '@mui/icons-material/Sanitizer';
import WorkspacePremium from '@mui/icons-material/WorkspacePremium';
import { Box, Divider, List, ListItem, ListItemIcon, ListItemText } from '@mui/material';
import type { LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { MessageRef } from '#client/lib/toasts.tsx';
import type { Module } from '#shared/access/index.ts';
import { ListItemLink } from '../router-link';

type AppPath = NonNullable<LinkProps['to']>;

/*
 * Module screens are added by their own features; until a module's route exists its path is not in
 * the generated route tree, hence the cast (a no-op once the route is there).
 */
const MODULE_ITEMS: Record<Module, { to: AppPath; label: MessageRef; icon: ReactNode }> = {
  customers: { to: '/customers', label: { id: 'layout.menu.customers' }, icon: <Business /> },
  users: { to: '/users', label: { id: 'layout.menu.users' }, icon: <Group /> },
  products: { to: '/products' as AppPath, label: { id: 'layout.menu.products' }, icon: <Inventory2 /> },
  devices: { to: '/devices' as AppPath, label: { id: 'layout.menu.devices' }, icon: <Devices /> },
  sterilizations: {
    to: '/sterilizations' as AppPath,
    label: { id: 'layout.menu.sterilizations' },
    icon: <Sanitizer />,
  },
  certificates: {
    to: '/certificates' as AppPath,
    label: { id: 'layout.menu.certificates' },
    icon: <WorkspacePremium />,
  },
  alerts: { to: '/alerts' as AppPath, label: { id: 'layout.menu.alerts' }, icon: <NotificationsActive /> },
  reports: { to: '/reports' as AppPath, label: { id: 'layout.menu.reports' }, icon: <Assignment /> },
};

/**
 * The current page's item is tinted and bold; the item with the keyboard focus has a ring (and its
 * own tint), so the two never look alike, and the current item focused shows both.
 */
const itemSx = {
  borderRadius: 1,
  mx: 1,
  '&[aria-current="page"]': { bgcolor: 'action.selected', fontWeight: 600 },
  '&.Mui-focusVisible': {
    outline: '2px solid',
    outlineColor: 'primary.main',
    outlineOffset: '-2px',
    bgcolor: 'action.focus',
  },
} as const;

/**
 * Left menu (logged-in only): profile, dashboard, one link per granted module, the audit trail
 * (canSeeAudit: not one of the spec's modules, so an ability decides), the e-mail outbox
 * (canSeeMailOutbox, likewise), blockchain logo.
 */
export function MainMenu({
  modules,
  showAudit = false,
  showOutbox = false,
  onNavigate,
}: {
  modules: readonly Module[];
  showAudit?: boolean;
  showOutbox?: boolean;
  onNavigate?: () => void;
}) {
  const intl = useIntl();
  return (
    <Box
      component="nav"
      aria-label={intl.formatMessage({ id: 'layout.menu.label' })}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <List>
        <ListItem disablePadding>
          <ListItemLink to="/profile" onClick={onNavigate} sx={itemSx}>
            <ListItemIcon>
              <Person />
            </ListItemIcon>
            <ListItemText primary={intl.formatMessage({ id: 'layout.menu.profile' })} />
          </ListItemLink>
        </ListItem>
        <ListItem disablePadding>
          <ListItemLink to="/" activeOptions={{ exact: true }} onClick={onNavigate} sx={itemSx}>
            <ListItemIcon>
              <Dashboard />
            </ListItemIcon>
            <ListItemText primary={intl.formatMessage({ id: 'layout.menu.dashboard' })} />
          </ListItemLink>
        </ListItem>
      </List>
      {modules.length > 0 && <Divider />}
      <List>
        {modules.map((module) => {
          const item = MODULE_ITEMS[module];
          return (
            <ListItem key={module} disablePadding>
              <ListItemLink to={item.to} onClick={onNavigate} sx={itemSx}>
                <ListItemIcon>{item.icon}</ListItemIcon>
                <ListItemText primary={intl.formatMessage({ id: item.label.id })} />
              </ListItemLink>
            </ListItem>
          );
        })}
        {/* Recall by lot is a view of the sterilization records, so it comes with their module. */}
        {modules.includes('sterilizations') && (
          <ListItem disablePadding>
            <ListItemLink to="/recall" onClick={onNavigate} sx={itemSx}>
              <ListItemIcon>
                <ManageSearch />
              </ListItemIcon>
              <ListItemText primary={intl.formatMessage({ id: 'layout.menu.recall' })} />
            </ListItemLink>
          </ListItem>
        )}
        {showAudit && (
          <ListItem disablePadding>
            <ListItemLink to="/audit" onClick={onNavigate} sx={itemSx}>
              <ListItemIcon>
                <FactCheck />
              </ListItemIcon>
              <ListItemText primary={intl.formatMessage({ id: 'layout.menu.audit' })} />
            </ListItemLink>
          </ListItem>
        )}
        {showOutbox && (
          <ListItem disablePadding>
            <ListItemLink to="/outbox" onClick={onNavigate} sx={itemSx}>
              <ListItemIcon>
                <Outbox />
              </ListItemIcon>
              <ListItemText primary={intl.formatMessage({ id: 'layout.menu.outbox' })} />
            </ListItemLink>
          </ListItem>
        )}
      </List>
      <Box sx={{ mt: 'auto', p: 2, display: 'flex', justifyContent: 'center' }}>
        <ListItemLink
          to="/blockchain"
          onClick={onNavigate}
          sx={{ ...itemSx, flexDirection: 'column', gap: 0.5, py: 1.5 }}
          aria-label={intl.formatMessage({ id: 'layout.menu.blockchain' })}
        >
          <Box component="img" src="/blockchain.svg" alt="" sx={{ width: 96, height: 'auto' }} />
          <ListItemText
            primary={intl.formatMessage({ id: 'layout.menu.blockchain' })}
            slotProps={{ primary: { variant: 'caption', align: 'center' } }}
          />
        </ListItemLink>
      </Box>
    </Box>
  );
}
