/**
 * The logged-in user's e-mail notification settings: the alert kinds that reach them by e-mail and the
 * language of those mails. A change is audited like any other change of the user (action profile_update).
 */
import { eq } from 'drizzle-orm';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { type User, users } from '#server/db/schema.ts';
import { updateRowById } from '#server/db/update-row.ts';
import { ok, validationFailed } from '#server/http/envelope.ts';
import { currentAuth } from '#server/security/guards.ts';
import type { AuthUser } from '#server/security/session-store.ts';
import type { NotificationSettings } from '#shared/api/index.ts';
import {
  defaultEmailAlertKinds,
  effectiveEmailAlertKinds,
  emailAlertKindsAvailableTo,
  type MailLanguage,
} from '#shared/notifications/index.ts';
import { auditSource, changedFields, writeAudited } from '../audit/index.ts';

function settingsOf(
  user: Pick<AuthUser, 'role'>,
  row: Pick<User, 'language' | 'emailAlertKinds'>,
): NotificationSettings {
  return {
    language: row.language === 'it' ? 'it' : 'en',
    email_alert_kinds: effectiveEmailAlertKinds(user.role, row.emailAlertKinds),
    uses_default: row.emailAlertKinds === null,
    available_kinds: emailAlertKindsAvailableTo(user.role),
  };
}

/** The audited view of the settings: kinds as one text, so the trail shows old → new plainly. */
function settingsFields(row: Pick<User, 'language' | 'emailAlertKinds'>) {
  return {
    language: row.language,
    email_alert_kinds: row.emailAlertKinds === null ? null : row.emailAlertKinds.join(', '),
  };
}

export function notificationsModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async getNotificationSettings(request) {
        const auth = currentAuth(request);
        const [row] = await db
          .select({ language: users.language, emailAlertKinds: users.emailAlertKinds })
          .from(users)
          .where(eq(users.id, auth.user.id));
        return ok(settingsOf(auth.user, row ?? { language: 'en', emailAlertKinds: null }));
      },

      async updateNotificationSettings(request) {
        const auth = currentAuth(request);
        const { language, email_alert_kinds: kinds } = request.body;
        const available = emailAlertKindsAvailableTo(auth.user.role);
        if (kinds?.some((kind) => !available.includes(kind)))
          throw validationFailed({ email_alert_kinds: ['validation.notifications.kind_not_available'] });
        // The default is stored as null, so a later change of the role's default reaches the user.
        const sameAsDefault =
          kinds !== null &&
          kinds.length === defaultEmailAlertKinds(auth.user.role).length &&
          defaultEmailAlertKinds(auth.user.role).every((kind) => kinds.includes(kind));
        const stored =
          kinds === null ? null : sameAsDefault ? null : available.filter((k) => kinds.includes(k));
        const after = await writeAudited(
          db,
          auditSource(request, auth),
          { action: 'profile_update', entityType: 'user', entityId: auth.user.id, skipUnchanged: true },
          async (tx) => {
            const change = await updateRowById(tx, users, auth.user.id, {
              language: language satisfies MailLanguage,
              emailAlertKinds: stored,
            });
            return {
              result: change.after,
              changes: changedFields(settingsFields(change.before), settingsFields(change.after)),
            };
          },
        );
        return ok(settingsOf(auth.user, after));
      },
    },
  };
}
