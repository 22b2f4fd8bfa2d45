import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { modelLabel, pageCount } from '../../web/features/company/company-log-page.tsx';
import {
  accessOf,
  emptyGrants,
  grantedIds,
  grantSummary,
  mergeGrants,
  normaliseGrants,
  setAccess,
} from '../../web/features/company/grants.ts';
import { logoProblemOf, pngSizeOf } from '../../web/features/company/png.ts';
import { membersByName, permissionSummary } from '../../web/features/company/user-list-page.tsx';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, decodable grey PNG of the given size. */
function png(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([
      signature,
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

describe('reading a logo PNG', () => {
  it('reads the width and height from the header', () => {
    expect(pngSizeOf(png(320, 48))).toEqual({ width: 320, height: 48 });
    expect(pngSizeOf(png(1, 1))).toEqual({ width: 1, height: 1 });
  });

  it('refuses what is not a PNG', () => {
    expect(pngSizeOf(new TextEncoder().encode('GIF89a and then some more bytes here'))).toBeNull();
    expect(pngSizeOf(png(300, 10).subarray(0, 20))).toBeNull();
  });

  it('applies the logo rule with the exact messages', () => {
    expect(logoProblemOf(png(200, 40))).toBeNull();
    expect(logoProblemOf(png(199, 40))).toBe('Must be at least 200px wide and .png format');
    expect(logoProblemOf(new TextEncoder().encode('\xff\xd8\xff JPEG data, not a PNG at all'))).toBe(
      'Must be at least 200px wide and .png format',
    );
    expect(logoProblemOf(null)).toBe('Please submit a logo.');
    expect(logoProblemOf(new Uint8Array())).toBe('Please submit a logo.');
  });
});

describe('editing grants', () => {
  it('grants read, upgrades to write, and takes the grant away again', () => {
    let g = setAccess(emptyGrants(), 'assets', 'a1', 'read');
    expect(g.assets).toEqual({ read: ['a1'], write: [] });
    expect(accessOf(g, 'assets', 'a1')).toBe('read');
    g = setAccess(g, 'assets', 'a1', 'write');
    expect(g.assets).toEqual({ read: ['a1'], write: ['a1'] });
    expect(accessOf(g, 'assets', 'a1')).toBe('write');
    g = setAccess(g, 'assets', 'a1', 'read');
    expect(g.assets).toEqual({ read: ['a1'], write: [] });
    g = setAccess(g, 'assets', 'a1', 'none');
    expect(g.assets).toEqual({ read: [], write: [] });
    expect(accessOf(g, 'assets', 'a1')).toBe('none');
  });

  it('leaves the other item types alone', () => {
    const g = setAccess(setAccess(emptyGrants(), 'entities', 'e1', 'write'), 'accounts', 'c1', 'read');
    expect(g.entities).toEqual({ read: ['e1'], write: ['e1'] });
    expect(g.accounts).toEqual({ read: ['c1'], write: [] });
    expect(g.assets).toEqual({ read: [], write: [] });
  });

  it('counts a write-only grant from the API as write access', () => {
    const g = normaliseGrants({ assets: { write: ['a2', 'a2'] }, entities: null, junk: true });
    expect(g).toEqual({
      entities: { read: [], write: [] },
      assets: { read: [], write: ['a2'] },
      accounts: { read: [], write: [] },
    });
    expect(accessOf(g, 'assets', 'a2')).toBe('write');
    expect(grantedIds(g, 'assets')).toEqual(['a2']);
  });

  it('merges a grant set, keeping the stronger access', () => {
    const own = setAccess(setAccess(emptyGrants(), 'assets', 'a1', 'write'), 'assets', 'a2', 'read');
    const set = setAccess(setAccess(emptyGrants(), 'assets', 'a1', 'read'), 'assets', 'a2', 'write');
    const merged = mergeGrants(own, setAccess(set, 'accounts', 'c9', 'read'));
    expect(accessOf(merged, 'assets', 'a1')).toBe('write');
    expect(accessOf(merged, 'assets', 'a2')).toBe('write');
    expect(accessOf(merged, 'accounts', 'c9')).toBe('read');
  });

  it('summarises grants and permissions for the users list', () => {
    const g = setAccess(
      setAccess(setAccess(emptyGrants(), 'assets', 'a1', 'read'), 'assets', 'a2', 'write'),
      'entities',
      'e1',
      'read',
    );
    expect(grantSummary(g)).toBe('1 entity, 2 assets (1 write)');
    expect(grantSummary(emptyGrants())).toBe('');
    expect(permissionSummary({ permissions: ['company_user', 'company_log'], grants: g })).toBe(
      'company_user, company_log; 1 entity, 2 assets (1 write)',
    );
    expect(permissionSummary({ permissions: [], grants: undefined })).toBe('—');
  });
});

describe('the activity log', () => {
  it('names models in words and pages the entries', () => {
    expect(modelLabel('users')).toBe('User');
    expect(modelLabel('asset-groups')).toBe('Asset group');
    expect(modelLabel('entities')).toBe('Entity');
    expect(modelLabel(undefined)).toBe('');
    expect(pageCount(0)).toBe(1);
    expect(pageCount(25)).toBe(1);
    expect(pageCount(26)).toBe(2);
  });
});

describe('the members list', () => {
  it('orders members by name, and one kept without a name by e-mail instead of failing the page', () => {
    const members = [
      { name: 'Zoe Hart', email: 'zoe@example.com' },
      { email: 'amy@example.com' },
      { name: 'Bob Lee' },
    ];
    expect(membersByName(members).map((m) => m.name ?? m.email)).toEqual([
      'amy@example.com',
      'Bob Lee',
      'Zoe Hart',
    ]);
  });
});
