/**
 * Saved views of the lists and each user's kept columns (docs/lists.md, ADR 0032). A view is a name for
 * a list's URL search; the rules of who shares with whom are in src/shared/access
 * (savedViewVisibilitiesFor, mayDeleteAnySavedView). Preferences, not records: not audited.
 */
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { forbidden, notFound, ok, validationFailed } from '#server/http/envelope.ts';
import { currentAuth } from '#server/security/guards.ts';
import type { AuthContext } from '#server/security/session-store.ts';
import { mayDeleteAnySavedView, savedViewVisibilitiesFor } from '#shared/access/index.ts';
import type { SavedViewVisibility } from '#shared/api/index.ts';
import {
  deleteView,
  findView,
  insertView,
  keepColumns,
  keptColumns,
  listVisibleViews,
  updateView,
  type ViewValues,
} from './repository.ts';

const NAME_TAKEN = 'validation.saved_view.name.taken';

/** A view keeps no page: it opens on page 1. The rest of the search is kept as the app wrote it. */
export function withoutPage(search: string): string {
  return search
    .split('&')
    .filter((part) => part !== '' && part.split('=')[0] !== 'page')
    .join('&');
}

/** The body's values, checked against the caller's role: a view is never shared across tenants. */
function viewValues(
  auth: AuthContext,
  body: { name: string; search: string; visibility: SavedViewVisibility },
): ViewValues {
  if (!savedViewVisibilitiesFor(auth.user.role).includes(body.visibility)) throw forbidden();
  const name = body.name.trim();
  return { name, search: withoutPage(body.search), visibility: body.visibility };
}

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error, 'saved_views_owner_list_name_uq'))
    throw validationFailed({ name: [NAME_TAKEN] });
  throw error;
}

export function savedViewsModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async listSavedViews(request) {
        const auth = currentAuth(request);
        return ok(await listVisibleViews(db, auth.user, request.query.list));
      },

      async createSavedView(request) {
        const auth = currentAuth(request);
        const values = viewValues(auth, request.body);
        const view = await insertView(db, auth.user, request.body.list, values).catch(nameTaken);
        return ok(view);
      },

      async updateSavedView(request) {
        const auth = currentAuth(request);
        const found = await findView(db, auth.user, request.params.viewId);
        if (!found?.visible) throw notFound();
        if (found.row.ownerId !== auth.user.id) throw forbidden();
        const values = viewValues(auth, request.body);
        const view = await updateView(db, auth.user, found.row.id, values).catch(nameTaken);
        if (!view) throw notFound();
        return ok(view);
      },

      async deleteSavedView(request) {
        const auth = currentAuth(request);
        const found = await findView(db, auth.user, request.params.viewId);
        const anyView = mayDeleteAnySavedView(auth.user.role);
        if (!found || (!found.visible && !anyView)) throw notFound();
        if (found.row.ownerId !== auth.user.id && !anyView) throw forbidden();
        await deleteView(db, found.row.id);
        return ok(null);
      },

      async getListColumns(request) {
        const auth = currentAuth(request);
        return ok(await keptColumns(db, auth.user.id));
      },

      async setListColumns(request) {
        const auth = currentAuth(request);
        await keepColumns(db, auth.user.id, request.params.list, request.body.columns);
        return ok(await keptColumns(db, auth.user.id));
      },
    },
  };
}
