/**
 * Alerts (src/server/alerts raises and clears them): the list with its filters, the bell's count,
 * acknowledge and resolve by hand. A CUSTOMER user reaches only their own customer's alerts; another
 * tenant's alert answers 404 like a missing one, and staff-only alerts have no customer at all.
 */

import { changedFields } from '#server/audit/changes.ts';
import { auditSource, writeAudited } from '#server/audit/write-audited.ts';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { written } from '#server/db/written.ts';
import { publishEvent } from '#server/events/publish.ts';
import { ApiError, notFound, ok } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { requireAbility, requireModule, tenantScope } from '#server/security/guards.ts';
import type { Alert } from '#shared/api/index.ts';
import { alertActionSchema } from '#shared/validation/index.ts';
import { acknowledge, countUnread, findAlert, listAlertPage, resolveByHand } from './repository.ts';

const conflict = (message: string) => new ApiError(409, message);

/** Blank is no comment. */
const commentOf = (body: { comment?: string } | undefined) => body?.comment?.trim() || null;

/** Why an alert cannot take this step, as the 409's message. */
function refusal(alert: Alert): ApiError {
  return conflict(alert.state === 'resolved' ? 'alerts.already_resolved' : 'alerts.already_acknowledged');
}

export function alertsModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    formSchemas: { acknowledgeAlert: alertActionSchema, resolveAlert: alertActionSchema },
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

      async acknowledgeAlert(request) {
        const auth = requireAbility(request, 'canAcknowledgeAlerts');
        const scope = tenantScope(auth);
        const alert = await findAlert(db, request.params.alertId, scope);
        if (!alert) throw notFound();
        if (alert.state !== 'open') throw refusal(alert);
        const comment = commentOf(request.body);
        const intent = { action: 'acknowledge', entityType: 'alert', entityId: alert.id } as const;
        await writeAudited(db, auditSource(request, auth), intent, async (tx) => {
          // Someone else may have acted since the read: then nothing changes and nothing is recorded.
          if (!(await acknowledge(tx, alert.id, auth.user.id, comment))) {
            throw refusal((await findAlert(tx, alert.id, scope)) ?? alert);
          }
          return {
            result: undefined,
            changes: changedFields(
              { state: 'open', acknowledge_comment: null },
              { state: 'acknowledged', acknowledge_comment: comment },
            ),
          };
        });
        // Every open bell that counted it refreshes (never awaited: publishEvent does not fail).
        void publishEvent(db, {
          type: 'alert.acknowledged',
          alertId: alert.id,
          customerId: alert.customer?.id ?? null,
        });
        return ok(written(await findAlert(db, alert.id, scope), 'alert'), 'alerts.acknowledged');
      },

      async resolveAlert(request) {
        const auth = requireAbility(request, 'canResolveAlerts');
        const scope = tenantScope(auth);
        const alert = await findAlert(db, request.params.alertId, scope);
        if (!alert) throw notFound();
        if (alert.state === 'resolved') throw refusal(alert);
        const comment = commentOf(request.body);
        const intent = { action: 'resolve', entityType: 'alert', entityId: alert.id } as const;
        await writeAudited(db, auditSource(request, auth), intent, async (tx) => {
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
        return ok(written(await findAlert(db, alert.id, scope), 'alert'), 'alerts.resolved');
      },
    },
  };
}
