import AccountCircle from '@mui/icons-material/AccountCircle';
import { Avatar, Box, Button, IconButton, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { lazy, type MouseEvent, Suspense, useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { useLogout } from '#client/lib/logout.ts';

const loadPopup = () => import('./user-menu-popup');
const UserMenuPopup = lazy(loadPopup);

/** Read by assistive technology, not shown. */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** Up to two initials of a name ("Ada Lovelace" → "AL"), or null when it has no letters. */
export function initials(name: string | null | undefined): string | null {
  const letters = (name ?? '')
    .split(/\s+/)
    .map((word) => word.match(/\p{L}/u)?.[0])
    .filter((letter): letter is string => letter !== undefined);
  if (letters.length === 0) return null;
  const picked = letters.length === 1 ? letters : [letters[0], letters[letters.length - 1]];
  return picked.join('').toUpperCase();
}

/**
 * Top-bar dropdown with the user's name and the logout item. The dropdown is fetched when the pointer
 * or focus first reaches the button (so it is there by the click), and mounted from then on. Under the
 * `sm` breakpoint the button is the name's initials (named after the whole name): a name cut to a few
 * letters beside the logo and the language switch said nothing.
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
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const buttonProps = {
    'aria-haspopup': 'menu',
    'aria-controls': anchor ? menuId : undefined,
    'aria-expanded': anchor ? 'true' : undefined,
    onPointerEnter: prefetch,
    onFocus: prefetch,
    onClick: (event: MouseEvent<HTMLElement>) => {
      setWanted(true);
      setAnchor(event.currentTarget);
    },
  } as const;
  return (
    <>
      {narrow ? (
        // Named by its (visually hidden) text, not aria-label: WCAG 2.5.3 wants a label's visible
        // text inside its name, and the initials alone are not the name.
        <IconButton id={buttonId} color="inherit" title={label} {...buttonProps}>
          <Avatar
            aria-hidden
            sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'common.white', color: 'primary.main' }}
          >
            {initials(label) ?? <AccountCircle />}
          </Avatar>
          <Box component="span" sx={VISUALLY_HIDDEN}>
            {label}
          </Box>
        </IconButton>
      ) : (
        <Button
          id={buttonId}
          color="inherit"
          startIcon={<AccountCircle />}
          {...buttonProps}
          sx={{ textTransform: 'none', maxWidth: 260 }}
        >
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{label}</span>
        </Button>
      )}
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
