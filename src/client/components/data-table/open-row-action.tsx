import Edit from '@mui/icons-material/Edit';
import { IconButton, Tooltip } from '@mui/material';
import { stopRowClick } from './data-table';

/** The pencil in a list's actions column: opens the row without also triggering the row click. */
export function OpenRowAction({ label, onOpen }: { label: string; onOpen: () => void }) {
  return (
    <Tooltip title={label}>
      <IconButton
        aria-label={label}
        size="small"
        onClick={(event) => {
          stopRowClick(event);
          onOpen();
        }}
      >
        <Edit fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
