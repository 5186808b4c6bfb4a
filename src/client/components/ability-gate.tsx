/**
 * An action the user lacks the ability for: shown disabled, with a tooltip naming the ability and the
 * roles that have it, so a greyed-out button is never left unexplained (components/disabled-reason).
 * Users with the ability get the action as it is.
 */
import type { ReactElement } from 'react';
import { useIntl } from 'react-intl';
import { type AbilityName, can, ROLES } from '#shared/access/index.ts';
import { useAbilities } from '../lib/session';
import { DisabledReason } from './disabled-reason';

export function AbilityGate({
  ability,
  children,
}: {
  ability: AbilityName;
  /** The action (a button, a select): given `disabled` when the ability is missing. */
  children: ReactElement<{ disabled?: boolean }>;
}) {
  const intl = useIntl();
  const allowed = useAbilities()[ability] === true;
  if (allowed) return children;
  const roles = ROLES.filter((role) => can(role, ability)).map((role) =>
    intl.formatMessage({ id: `users.role.${role}` }),
  );
  const reason = intl.formatMessage(
    { id: 'abilities.missing' },
    { ability: intl.formatMessage({ id: `abilities.${ability}` }), roles: intl.formatList(roles) },
  );
  return (
    <DisabledReason reason={reason} data={{ 'data-ability': ability }}>
      {children}
    </DisabledReason>
  );
}
