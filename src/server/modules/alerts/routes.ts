/**
 * Alerts (src/server/alerts raises and clears them): the list with its filters, the bell's count,
 * acknowledge and resolve by hand. A CUSTOMER user reaches only their own customer's alerts; another
 * tenant's alert answers 404 like a missing one, and staff-only alerts have no customer at all.
 */

import { withForm } from '#server/contract/form-operation.ts';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { written } from '#server/db/written.ts';
import { publishEvent } from '#server/event-bus/publish.ts';
import { ApiError, notFound, ok, validationFailed } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { requireAbility, requireModule, tenantScope } from '#server/security/guards.ts';
import type { AuthContext } from '#server/security/session-store.ts';
import type { Alert } from '#shared/api/index.ts';
import { alertActionSchema } from '#shared/validation/index.ts';
import { auditSource, changedFields, writeAudited } from '../audit/index.ts';
import {
  acknowledge,
  countUnread,
  findAlert,
  listAlertPage,
  matchingAlertIds,
  resolveByHand,
} from './repository.ts';

const conflict = (message: string) => new ApiError(409, message);

/** The most alerts one bulk action takes. */
const BULK_MAX = 500;
type BulkSkipReason = 'not_found' | 'alerts.already_acknowledged' | 'alerts.already_resolved';

/** Why an alert cannot take this step, as the 409's message. */
function refusal(alert: Alert): ApiError {
  return conflict(alert.state === 'resolved' ? 'alerts.already_resolved' : 'alerts.already_acknowledged');
}

export function alertsModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async listAlerts(request) {
        const auth = requireModule(request, 'alerts');
        const { page, sortBy, sortDir, state, kind, customerId, deviceId } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listAlertPage(
          db,
          { scope: tenantScope(auth), state, kind, customerId, deviceId },
          { sort: sortBy ?? 'raised_at', dir: sortDir ?? 'desc', limit: paging.limit, offset: paging.offset },
        );
        return ok(pageOf(rows, total, paging));
      },

      async countUnreadAlerts(request) {
        const auth = requireModule(request, 'alerts');
        return ok({ unread: await countUnread(db, tenantScope(auth)) });
      },

      acknowledgeAlert: withForm(
        {
          authorize: (request) => requireAbility(request, 'canAcknowledgeAlerts'),
          schema: alertActionSchema,
        },
        async (request, { form, subject: auth }) => {
          const outcome = await act(
            request,
            auth,
            'acknowledge',
            request.params.alertId,
            form.comment || null,
          );
          if (outcome !== 'done') throw outcome;
          return ok(
            written(await findAlert(db, request.params.alertId, tenantScope(auth)), 'alert'),
            'alerts.acknowledged',
          );
        },
      ),

      resolveAlert: withForm(
        { authorize: (request) => requireAbility(request, 'canResolveAlerts'), schema: alertActionSchema },
        async (request, { form, subject: auth }) => {
          const outcome = await act(request, auth, 'resolve', request.params.alertId, form.comment || null);
          if (outcome !== 'done') throw outcome;
          return ok(
            written(await findAlert(db, request.params.alertId, tenantScope(auth)), 'alert'),
            'alerts.resolved',
          );
        },
      ),

      bulkAlertAction: withForm(
        {
          // The action is read before the body is judged: whatever it is, the caller needs the ability.
          authorize: (request, values) =>
            requireAbility(
              request,
              values.action === 'acknowledge' ? 'canAcknowledgeAlerts' : 'canResolveAlerts',
            ),
          schema: alertActionSchema,
        },
        async (request, { form, subject: auth }) => {
          const { action, ids, filter } = request.body;
          if ((ids === undefined) === (filter === undefined))
            throw validationFailed({ ids: ['validation.alert.bulk.ids_or_filter'] });
          const chosen =
            ids ?? (await matchingAlertIds(db, { scope: tenantScope(auth), ...filter }, BULK_MAX + 1));
          const comment = form.comment || null;
          const done: number[] = [];
          const skipped: { id: number; reason: BulkSkipReason }[] = [];
          // One at a time, each in its own audited transaction, as if acted on one by one.
          for (const id of chosen.slice(0, BULK_MAX)) {
            const outcome = await act(request, auth, action, id, comment);
            if (outcome === 'done') done.push(id);
            else
              skipped.push({
                id,
                reason: outcome.statusCode === 404 ? 'not_found' : (outcome.message as BulkSkipReason),
              });
          }
          return ok({ done, skipped, more: chosen.length > BULK_MAX });
        },
      ),
    },
  };

  /**
   * Acknowledges or resolves one alert the caller may see, audited; what stands in the way (not found,
   * already acknowledged or resolved) is answered, not thrown, so that a bulk action goes on.
   */
  async function act(
    request: Parameters<typeof auditSource>[0],
    auth: AuthContext,
    action: 'acknowledge' | 'resolve',
    alertId: number,
    comment: string | null,
  ): Promise<'done' | ApiError> {
    const scope = tenantScope(auth);
    const alert = await findAlert(db, alertId, scope);
    if (!alert) return notFound();
    if (action === 'acknowledge' ? alert.state !== 'open' : alert.state === 'resolved') return refusal(alert);
    const intent = { action, entityType: 'alert', entityId: alert.id } as const;
    try {
      await writeAudited(db, auditSource(request, auth), intent, async (tx) => {
        // Someone else may have acted since the read: then nothing changes and nothing is recorded.
        if (action === 'acknowledge') {
          if (!(await acknowledge(tx, alert.id, auth.user.id, comment)))
            throw refusal((await findAlert(tx, alert.id, scope)) ?? alert);
          return {
            result: undefined,
            changes: changedFields(
              { state: 'open', acknowledge_comment: null },
              { state: 'acknowledged', acknowledge_comment: comment },
            ),
          };
        }
        if (!(await resolveByHand(tx, alert.id, auth.user.id, comment)))
          throw refusal({ ...alert, state: 'resolved' });
        return {
          result: undefined,
          changes: changedFields(
            { state: alert.state, resolution: null, resolve_comment: null },
            { state: 'resolved', resolution: 'manual', resolve_comment: comment },
          ),
        };
      });
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 409) return error;
      throw error;
    }
    // Every open bell that counted it refreshes (never awaited: publishEvent does not fail).
    if (action === 'acknowledge')
      void publishEvent(db, {
        type: 'alert.acknowledged',
        alertId: alert.id,
        customerId: alert.customer?.id ?? null,
      });
    return 'done';
  }
}
