import { describe, expect, it } from 'vitest';
import { meterTenantText } from '../../web/features/accounts/account-fields.tsx';

describe("a meter's tenant as its pages show it", () => {
  const tenants = [
    { _id: 'cafe', name: 'Café Nero', unit: 'Ground floor' },
    { _id: 'books', name: 'Holborn Books' },
  ];

  it('is the tenant by name and unit, "…" while the tenants load', () => {
    expect(meterTenantText('cafe', tenants)).toBe('Café Nero (Ground floor)');
    expect(meterTenantText('books', tenants)).toBe('Holborn Books');
    expect(meterTenantText('cafe', undefined)).toBe('…');
  });

  it('says when the tenant is no longer on the site, never showing its id', () => {
    expect(meterTenantText('01a2gone', tenants)).toBe('a tenant no longer on the site');
    expect(meterTenantText('01a2gone', [])).not.toContain('01a2gone');
    expect(meterTenantText('cafe', undefined, true)).toBe('a tenant of the site');
  });
});
