/**
 * A list's Views menu (docs/lists.md "Saved views"): the saved views of this list the user may pick
 * (their own and those shared with them), "Save current view…" and, for their own, rename and delete.
 * A view is the list's URL search: picking one is navigation, so its link works anywhere.
 */
import Bookmarks from '@mui/icons-material/Bookmarks';
import Check from '@mui/icons-material/Check';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from '#client/lib/api-client.ts';
import { useSession } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import { savedViewVisibilitiesFor } from '#shared/access/index.ts';
import type { ListName, SavedView, SavedViewVisibility } from '#shared/api/index.ts';
import {
  useCreateSavedView,
  useDeleteSavedView,
  useSavedViews,
  useUpdateSavedView,
} from './list-preferences';
import { searchToSave, viewSearch } from './view-search';

const NAME_MAX_LENGTH = 80;

type Editing = { kind: 'save' } | { kind: 'rename'; view: SavedView };

function ViewDialog({
  list,
  editing,
  search,
  onClose,
}: {
  list: ListName;
  editing: Editing;
  search: string;
  onClose: () => void;
}) {
  const intl = useIntl();
  const role = useSession()?.user.role;
  const visibilities: readonly SavedViewVisibility[] = role ? savedViewVisibilitiesFor(role) : ['private'];
  const create = useCreateSavedView(list);
  const update = useUpdateSavedView();
  const [name, setName] = useState(editing.kind === 'rename' ? editing.view.name : '');
  const [visibility, setVisibility] = useState<SavedViewVisibility>(
    editing.kind === 'rename' ? editing.view.visibility : 'private',
  );
  const [serverError, setServerError] = useState<string | null>(null);
  const titleId = useId();
  const busy = create.isPending || update.isPending;
  const trimmed = name.trim();
  const tooLong = Array.from(trimmed).length > NAME_MAX_LENGTH;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || tooLong) return;
    setServerError(null);
    try {
      if (editing.kind === 'rename') {
        await update.mutateAsync({
          id: editing.view.id,
          name: trimmed,
          search: editing.view.search,
          visibility,
        });
        toast.success({ id: 'list.views.renamed' });
      } else {
        await create.mutateAsync({ name: trimmed, search, visibility });
        toast.success({ id: 'list.views.saved' });
      }
      onClose();
    } catch (error) {
      const ids = error instanceof ApiError ? (error.data as { name?: unknown } | null)?.name : undefined;
      if (Array.isArray(ids) && typeof ids[0] === 'string') setServerError(ids[0]);
    }
  };

  const helper = tooLong
    ? intl.formatMessage({ id: 'list.views.name_too_long' }, { max: NAME_MAX_LENGTH })
    : serverError
      ? intl.formatMessage({ id: serverError })
      : undefined;

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>
          {intl.formatMessage({
            id: editing.kind === 'rename' ? 'list.views.rename_title' : 'list.views.save_title',
          })}
        </DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
          <TextField
            autoFocus
            required
            name="name"
            label={intl.formatMessage({ id: 'list.views.name' })}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setServerError(null);
            }}
            error={helper !== undefined}
            helperText={helper}
          />
          <TextField
            select
            name="visibility"
            label={intl.formatMessage({ id: 'list.views.visibility' })}
            value={visibility}
            onChange={(event) => setVisibility(event.target.value as SavedViewVisibility)}
          >
            {visibilities.map((option) => (
              <MenuItem key={option} value={option}>
                {intl.formatMessage({ id: `list.views.visibility_${option}` })}
              </MenuItem>
            ))}
          </TextField>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {intl.formatMessage({ id: 'common.cancel' })}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || trimmed === '' || tooLong}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {intl.formatMessage({ id: editing.kind === 'rename' ? 'list.views.rename' : 'list.views.save' })}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The user's own views of the list, each with Rename and Delete. */
function ManageDialog({
  views,
  onRename,
  onClose,
}: {
  views: SavedView[];
  onRename: (view: SavedView) => void;
  onClose: () => void;
}) {
  const intl = useIntl();
  const remove = useDeleteSavedView();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{intl.formatMessage({ id: 'list.views.manage_title' })}</DialogTitle>
      <DialogContent dividers sx={{ px: 1 }}>
        {views.length === 0 ? (
          <Typography sx={{ px: 2 }} color="text.secondary">
            {intl.formatMessage({ id: 'list.views.none_own' })}
          </Typography>
        ) : (
          <List dense>
            {views.map((view) => (
              <ListItem
                key={view.id}
                secondaryAction={
                  <Box sx={{ display: 'flex' }}>
                    <IconButton
                      aria-label={intl.formatMessage({ id: 'list.views.rename_named' }, { name: view.name })}
                      onClick={() => onRename(view)}
                    >
                      <Edit fontSize="small" />
                    </IconButton>
                    <IconButton
                      aria-label={intl.formatMessage({ id: 'list.views.delete_named' }, { name: view.name })}
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(view.id, {
                          onSuccess: () => toast.success({ id: 'list.views.deleted' }),
                        })
                      }
                    >
                      <Delete fontSize="small" />
                    </IconButton>
                  </Box>
                }
                sx={{ pr: 12 }}
              >
                <ListItemText
                  primary={view.name}
                  secondary={intl.formatMessage({ id: `list.views.visibility_${view.visibility}` })}
                  sx={{ overflowWrap: 'anywhere' }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{intl.formatMessage({ id: 'common.close' })}</Button>
      </DialogActions>
    </Dialog>
  );
}

export function ViewsMenu({ list, keptColumns }: { list: ListName; keptColumns?: string }) {
  const intl = useIntl();
  const router = useRouter();
  const location = useRouterState({ select: (state) => state.location });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [managing, setManaging] = useState(false);
  const [wanted, setWanted] = useState(false);
  const views = useSavedViews(list, wanted);
  const buttonId = useId();
  const menuId = useId();
  const current = viewSearch(location.searchStr);
  const own = (views.data ?? []).filter((view) => view.mine);

  const pick = (view: SavedView) => {
    setAnchor(null);
    router.history.push(view.search === '' ? location.pathname : `${location.pathname}?${view.search}`);
  };

  return (
    <>
      <Button
        id={buttonId}
        startIcon={<Bookmarks />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onPointerEnter={() => setWanted(true)}
        onFocus={() => setWanted(true)}
        onClick={(event) => {
          setWanted(true);
          setAnchor(event.currentTarget);
        }}
      >
        {intl.formatMessage({ id: 'list.views.button' })}
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{
          list: { 'aria-labelledby': buttonId },
          paper: { sx: { maxWidth: 'calc(100vw - 32px)' } },
        }}
      >
        {views.isPending && (
          <MenuItem disabled>
            <CircularProgress size={16} sx={{ mr: 1 }} />
            {intl.formatMessage({ id: 'common.loading' })}
          </MenuItem>
        )}
        {views.data?.length === 0 && (
          <MenuItem disabled>{intl.formatMessage({ id: 'list.views.none' })}</MenuItem>
        )}
        {views.data?.map((view) => (
          <MenuItem key={view.id} selected={view.search === current} onClick={() => pick(view)}>
            <ListItemIcon>{view.search === current && <Check fontSize="small" />}</ListItemIcon>
            <ListItemText
              primary={view.name}
              secondary={
                view.mine
                  ? undefined
                  : intl.formatMessage({ id: 'list.views.shared_by' }, { name: view.owner_name })
              }
              sx={{ whiteSpace: 'normal', overflowWrap: 'anywhere' }}
            />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setEditing({ kind: 'save' });
          }}
        >
          {intl.formatMessage({ id: 'list.views.save_current' })}
        </MenuItem>
        {own.length > 0 && (
          <MenuItem
            onClick={() => {
              setAnchor(null);
              setManaging(true);
            }}
          >
            {intl.formatMessage({ id: 'list.views.manage' })}
          </MenuItem>
        )}
      </Menu>
      {editing && (
        <ViewDialog
          list={list}
          editing={editing}
          search={searchToSave(current, keptColumns)}
          onClose={() => setEditing(null)}
        />
      )}
      {managing && (
        <ManageDialog
          views={own}
          onRename={(view) => {
            setManaging(false);
            setEditing({ kind: 'rename', view });
          }}
          onClose={() => setManaging(false)}
        />
      )}
    </>
  );
}
