/**
 * Page-level checks made before a page loads, from what the login response granted (modules and
 * abilities). They only spare the user a screen they cannot use: the server refuses the calls anyway.
 */
import type { AbilityName, Module } from '#shared/access/index.ts';
import { type Session, sessionModules } from './session';

/** The session may not see this page; the route's error view says so (router.tsx). */
export class NotAuthorisedError extends Error {
  constructor() {
    super('not_authorised');
    this.name = 'NotAuthorisedError';
  }
}

/** A module's page: its module must be among the session's (the menu shows the same ones). */
export function requireModulePage(session: Session | null, module: Module): void {
  if (!sessionModules(session).includes(module)) throw new NotAuthorisedError();
}

/** A page for one ability (the audit trail). */
export function requireAbilityPage(session: Session | null, ability: AbilityName): void {
  if (session?.user.abilities?.[ability] !== true) throw new NotAuthorisedError();
}
