/**
 * The menu of a narrow screen: a modal drawer opened from the top bar's menu button. Loaded on its own
 * (lazily, by app-shell.tsx), since a drawer brings the modal's code (focus trap, backdrop, transitions)
 * that wide screens, where the menu is docked, never use.
 */
import { Drawer, Toolbar } from '@mui/material';
import type { ReactNode } from 'react';

export default function PhoneMenu({
  open,
  onClose,
  label,
  width,
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** The dialog's name. */
  label: string;
  width: number;
  children: ReactNode;
}) {
  return (
    <Drawer
      variant="temporary"
      open={open}
      onClose={onClose}
      ModalProps={{ keepMounted: true }}
      slotProps={{ paper: { 'aria-label': label } }}
      sx={{ '& .MuiDrawer-paper': { width, boxSizing: 'border-box' } }}
    >
      <Toolbar />
      {children}
    </Drawer>
  );
}
