import AccountCircle from '@mui/icons-material/AccountCircle';
import { Button } from '@mui/material';
import { lazy, Suspense, useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { useLogout } from '../../lib/logout';

const loadPopup = () => import('./user-menu-popup');
const UserMenuPopup = lazy(loadPopup);

/**
 * Top-bar dropdown with the user's name and the logout item. The dropdown is fetched when the pointer
 * or focus first reaches the button (so it is there by the click), and mounted from then on.
 */
export function UserMenu({ name }: { name: string | null | undefined }) {
  const intl = useIntl();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [wanted, setWanted] = useState(false);
  const buttonId = useId();
  const menuId = useId();
  const label = name?.trim() || intl.formatMessage({ id: 'layout.user.fallback' });
  const prefetch = () => void loadPopup();
  return (
    <>
      <Button
        id={buttonId}
        color="inherit"
        startIcon={<AccountCircle />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={(event) => {
          setWanted(true);
          setAnchor(event.currentTarget);
        }}
        sx={{ textTransform: 'none', maxWidth: 260 }}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{label}</span>
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <UserMenuPopup
            menuId={menuId}
            buttonId={buttonId}
            anchor={anchor}
            onClose={() => setAnchor(null)}
            onLogout={() => {
              setAnchor(null);
              void logout();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
