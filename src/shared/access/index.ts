/**
 * Roles → abilities and menu modules. The single source of truth for authorization:
 * the server enforces it on every handler, the client only uses it to hide what a user cannot do.
 */
export const ROLES = ['CUSTOMER', 'CUSTOMER_CARE', 'ADMIN', 'SUPER_ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export const ABILITY_NAMES = [
  'canSeeAllSterilizations',
  'canDownloadSterilizations',
  'canCreateCustomers',
  'canDownloadCustomers',
  'canCreateUsers',
  'canUpdateUsers',
  'canCreateDevices',
  'canUpdateDevices',
  'canGenerateDeviceKeys',
  'canAssignDeviceToDifferentCustomer',
  'canUploadCertificates',
  'canSeeAudit',
  'canSeeMailOutbox',
  'canSeeChainCosts',
  'canAcknowledgeAlerts',
  'canResolveAlerts',
  'canSignReports',
] as const;
export type AbilityName = (typeof ABILITY_NAMES)[number];
export type Abilities = Record<AbilityName, boolean>;

export const MODULES = [
  'customers',
  'users',
  'products',
  'devices',
  'sterilizations',
  'certificates',
  'alerts',
  'reports',
] as const;
export type Module = (typeof MODULES)[number];

/** The manufacturer's own roles: they see every customer. */
export const STAFF_ROLES: readonly Role[] = ['CUSTOMER_CARE', 'ADMIN', 'SUPER_ADMIN'];
/** Roles only a SUPER_ADMIN may grant, or manage in someone else's account. */
export const PRIVILEGED_ROLES: readonly Role[] = ['ADMIN', 'SUPER_ADMIN'];
const STAFF = STAFF_ROLES;
const MANAGERS = PRIVILEGED_ROLES;

const ABILITY_ROLES: Record<AbilityName, readonly Role[]> = {
  canSeeAllSterilizations: STAFF,
  canDownloadSterilizations: ROLES,
  canCreateCustomers: MANAGERS,
  canDownloadCustomers: MANAGERS,
  canCreateUsers: MANAGERS,
  canUpdateUsers: MANAGERS,
  canCreateDevices: MANAGERS,
  canUpdateDevices: MANAGERS,
  canGenerateDeviceKeys: ['SUPER_ADMIN'],
  canAssignDeviceToDifferentCustomer: MANAGERS,
  canUploadCertificates: MANAGERS,
  canSeeAudit: MANAGERS,
  canSeeMailOutbox: MANAGERS,
  // What anchoring costs the maker: its own figures, never a clinic's business.
  canSeeChainCosts: MANAGERS,
  // Everyone who sees an alert may say they have seen it; resolving by hand closes it for everybody,
  // so it is for managers and for the clinic that owns it, not for customer care (who read and pass on).
  canAcknowledgeAlerts: ROLES,
  canResolveAlerts: ['CUSTOMER', 'ADMIN', 'SUPER_ADMIN'],
  // The maker's quality managers, and the clinic's own users for their own clinic's reports (tenant rule).
  canSignReports: ['SUPER_ADMIN', 'ADMIN', 'CUSTOMER'],
};

const MODULE_ROLES: Record<Module, readonly Role[]> = {
  customers: STAFF,
  users: STAFF,
  products: MANAGERS,
  devices: STAFF,
  sterilizations: ROLES,
  certificates: ROLES,
  alerts: ROLES,
  // The clinic's own entry; staff reach a customer's reports from its page.
  reports: ['CUSTOMER'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function abilitiesFor(role: Role): Abilities {
  return Object.fromEntries(
    ABILITY_NAMES.map((name) => [name, ABILITY_ROLES[name].includes(role)]),
  ) as Abilities;
}

export function can(role: Role, ability: AbilityName): boolean {
  return ABILITY_ROLES[ability].includes(role);
}

export function modulesFor(role: Role): Module[] {
  return MODULES.filter((module) => MODULE_ROLES[module].includes(role));
}

export function hasModule(role: Role, module: Module): boolean {
  return MODULE_ROLES[module].includes(role);
}

/** Customer users are confined to their own customer's data everywhere; staff see every tenant. */
export function isTenantScoped(role: Role): boolean {
  return role === 'CUSTOMER';
}

/** Customer 1 is the manufacturer: its users are the staff; every other customer's users are CUSTOMER. */
export const MANUFACTURER_CUSTOMER_ID = 1;

/** The roles a user of this customer may have: staff roles for the manufacturer, CUSTOMER elsewhere. */
export function rolesAllowedFor(customerId: number): readonly Role[] {
  return customerId === MANUFACTURER_CUSTOMER_ID ? STAFF_ROLES : ['CUSTOMER'];
}

/** The role a new user of this customer gets when the form names none. */
export function defaultRoleFor(customerId: number): Role {
  return customerId === MANUFACTURER_CUSTOMER_ID ? 'CUSTOMER_CARE' : 'CUSTOMER';
}

/** Only a SUPER_ADMIN grants ADMIN or SUPER_ADMIN, or manages another user who has one. */
export function mayGrantRole(callerRole: Role, role: Role): boolean {
  return callerRole === 'SUPER_ADMIN' || !PRIVILEGED_ROLES.includes(role);
}

/**
 * The roles the caller may give a user of this customer. A user's `current` role stays assignable
 * (keeping it is no grant), so a form can show it.
 */
export function assignableRoles(callerRole: Role, customerId: number, current?: Role): Role[] {
  return rolesAllowedFor(customerId).filter((role) => role === current || mayGrantRole(callerRole, role));
}

/** Who a saved view of a list may be shared with (docs/lists.md): beyond its owner, nobody. */
export type SavedViewVisibility = 'private' | 'customer' | 'staff';

/**
 * The visibilities a role may give its saved views: a customer user shares with the users of their own
 * customer, staff share with every staff user; a view is never shared across that line.
 */
export function savedViewVisibilitiesFor(role: Role): readonly SavedViewVisibility[] {
  return isTenantScoped(role) ? ['private', 'customer'] : ['private', 'staff'];
}

/** Only the owner changes or deletes a saved view; a SUPER_ADMIN may also delete anyone's. */
export function mayDeleteAnySavedView(role: Role): boolean {
  return role === 'SUPER_ADMIN';
}
