import { describe, expect, it } from 'vitest';
import { roleOptions } from './user-edit-page';

describe('role options', () => {
  it('offers staff roles only on the manufacturer, privileged ones only to a super admin', () => {
    expect(roleOptions(1, 'SUPER_ADMIN')).toEqual(['CUSTOMER_CARE', 'ADMIN', 'SUPER_ADMIN']);
    expect(roleOptions(1, 'ADMIN')).toEqual(['CUSTOMER_CARE']);
    expect(roleOptions(1, 'ADMIN', 'ADMIN')).toEqual(['CUSTOMER_CARE', 'ADMIN']);
    expect(roleOptions(7, 'SUPER_ADMIN')).toEqual(['CUSTOMER']);
  });
});
