import Logout from '@mui/icons-material/Logout';
import { ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useIntl } from 'react-intl';

/**
 * The user menu's dropdown. Its own chunk (loaded when the menu is first wanted, see user-menu.tsx):
 * MUI's Menu with its popover and transition is about 10 kB gzip that no first page needs.
 */
export default function UserMenuPopup({
  menuId,
  buttonId,
  anchor,
  onClose,
  onLogout,
}: {
  menuId: string;
  buttonId: string;
  anchor: HTMLElement | null;
  onClose: () => void;
  onLogout: () => void;
}) {
  const intl = useIntl();
  return (
    <Menu
      id={menuId}
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ list: { 'aria-labelledby': buttonId } }}
    >
      <MenuItem onClick={onLogout}>
        <ListItemIcon>
          <Logout fontSize="small" />
        </ListItemIcon>
        <ListItemText>{intl.formatMessage({ id: 'layout.user.logout' })}</ListItemText>
      </MenuItem>
    </Menu>
  );
}
