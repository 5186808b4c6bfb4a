import { describe, expect, it } from 'vitest';
import {
  ABILITY_NAMES,
  abilitiesFor,
  assignableRoles,
  defaultRoleFor,
  isTenantScoped,
  mayDeleteAnySavedView,
  modulesFor,
  type Role,
  savedViewVisibilitiesFor,
} from './index.ts';

// The matrix as the README and docs/product.md §6 state it, written out literally so a change to the table
// fails here.
const expected: Record<string, Record<Role, boolean>> = {
  canSeeAllSterilizations: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: true, CUSTOMER: false },
  canDownloadSterilizations: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: true, CUSTOMER: true },
  canCreateCustomers: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canDownloadCustomers: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canCreateUsers: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canUpdateUsers: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canCreateDevices: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canUpdateDevices: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canGenerateDeviceKeys: { SUPER_ADMIN: true, ADMIN: false, CUSTOMER_CARE: false, CUSTOMER: false },
  canAssignDeviceToDifferentCustomer: {
    SUPER_ADMIN: true,
    ADMIN: true,
    CUSTOMER_CARE: false,
    CUSTOMER: false,
  },
  canUploadCertificates: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canSeeAudit: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canSeeMailOutbox: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canSeeChainCosts: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: false },
  canAcknowledgeAlerts: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: true, CUSTOMER: true },
  canResolveAlerts: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: true },
  canSignReports: { SUPER_ADMIN: true, ADMIN: true, CUSTOMER_CARE: false, CUSTOMER: true },
};

describe('access matrix', () => {
  it('covers every ability', () => {
    expect(Object.keys(expected).sort()).toEqual([...ABILITY_NAMES].sort());
  });

  for (const role of ['SUPER_ADMIN', 'ADMIN', 'CUSTOMER_CARE', 'CUSTOMER'] as const) {
    it(`grants ${role} exactly its abilities`, () => {
      const abilities = abilitiesFor(role);
      for (const name of ABILITY_NAMES)
        expect([name, abilities[name]]).toEqual([name, expected[name]?.[role]]);
    });
  }

  it('gives each role its menu modules', () => {
    const all = ['customers', 'users', 'products', 'devices', 'sterilizations', 'certificates', 'alerts'];
    expect(modulesFor('SUPER_ADMIN')).toEqual(all);
    expect(modulesFor('ADMIN')).toEqual(all);
    expect(modulesFor('CUSTOMER_CARE')).toEqual([
      'customers',
      'users',
      'devices',
      'sterilizations',
      'certificates',
      'alerts',
    ]);
    expect(modulesFor('CUSTOMER')).toEqual(['sterilizations', 'certificates', 'alerts', 'reports']);
  });

  it('confines only customer users to their tenant', () => {
    expect(isTenantScoped('CUSTOMER')).toBe(true);
    expect(isTenantScoped('CUSTOMER_CARE')).toBe(false);
  });
});

describe('assignable roles', () => {
  it('offers staff roles only on the manufacturer, privileged ones only to a super admin', () => {
    expect(assignableRoles('SUPER_ADMIN', 1)).toEqual(['CUSTOMER_CARE', 'ADMIN', 'SUPER_ADMIN']);
    expect(assignableRoles('ADMIN', 1)).toEqual(['CUSTOMER_CARE']);
    expect(assignableRoles('SUPER_ADMIN', 7)).toEqual(['CUSTOMER']);
    expect(assignableRoles('ADMIN', 7)).toEqual(['CUSTOMER']);
  });

  it("keeps the user's current role, which is no grant", () => {
    expect(assignableRoles('ADMIN', 1, 'ADMIN')).toEqual(['CUSTOMER_CARE', 'ADMIN']);
    expect(assignableRoles('CUSTOMER', 1, 'SUPER_ADMIN')).toEqual(['CUSTOMER_CARE', 'SUPER_ADMIN']);
  });

  it('defaults a new user to the least role of its customer', () => {
    expect(defaultRoleFor(1)).toBe('CUSTOMER_CARE');
    expect(defaultRoleFor(7)).toBe('CUSTOMER');
  });
});

describe('saved views', () => {
  it('lets a customer user share with their customer and staff with staff, never across', () => {
    expect(savedViewVisibilitiesFor('CUSTOMER')).toEqual(['private', 'customer']);
    for (const role of ['CUSTOMER_CARE', 'ADMIN', 'SUPER_ADMIN'] as const)
      expect(savedViewVisibilitiesFor(role)).toEqual(['private', 'staff']);
  });

  it('lets only a SUPER_ADMIN delete the views of others', () => {
    expect(
      ['SUPER_ADMIN', 'ADMIN', 'CUSTOMER_CARE', 'CUSTOMER'].map((role) =>
        mayDeleteAnySavedView(role as Role),
      ),
    ).toEqual([true, false, false, false]);
  });
});
