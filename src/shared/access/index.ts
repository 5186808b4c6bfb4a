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
] as const;
export type Module = (typeof MODULES)[number];

const STAFF: readonly Role[] = ['SUPER_ADMIN', 'ADMIN', 'CUSTOMER_CARE'];
const MANAGERS: readonly Role[] = ['SUPER_ADMIN', 'ADMIN'];

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
};

const MODULE_ROLES: Record<Module, readonly Role[]> = {
  customers: STAFF,
  users: STAFF,
  products: MANAGERS,
  devices: STAFF,
  sterilizations: ROLES,
  certificates: ROLES,
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
