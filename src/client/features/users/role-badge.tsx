import { Chip, type ChipProps } from '@mui/material';
import { useIntl } from 'react-intl';
import type { Role } from '#shared/api/index.ts';

/**
 * docs/product.md §2: CUSTOMER success, CUSTOMER_CARE info, ADMIN warning, SUPER_ADMIN danger, any other
 * dark.
 */
const ROLE_COLORS: Record<string, ChipProps['color']> = {
  CUSTOMER: 'success',
  CUSTOMER_CARE: 'info',
  ADMIN: 'warning',
  SUPER_ADMIN: 'error',
};

export const ROLE_LABEL_IDS: Record<Role, string> = {
  CUSTOMER: 'users.role.CUSTOMER',
  CUSTOMER_CARE: 'users.role.CUSTOMER_CARE',
  ADMIN: 'users.role.ADMIN',
  SUPER_ADMIN: 'users.role.SUPER_ADMIN',
};

export function RoleBadge({ role }: { role: string }) {
  const intl = useIntl();
  const color = ROLE_COLORS[role];
  const labelId = ROLE_LABEL_IDS[role as Role];
  return (
    <Chip
      size="small"
      data-role={role}
      color={color ?? 'default'}
      label={labelId ? intl.formatMessage({ id: labelId }) : role}
      // "dark" for an unknown role: the MUI palette has no dark chip.
      sx={color ? undefined : { bgcolor: 'grey.800', color: 'common.white' }}
    />
  );
}
