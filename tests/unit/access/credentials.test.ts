import { describe, expect, it } from 'vitest';
import {
  formatApiKey,
  parseApiKey,
  parseIdSecret,
  publicPartOf,
} from '../../../shared/access/credentials.ts';

describe('kiosk and machine keys: id:secret (01 §5)', () => {
  it.each([
    ['k1:s3cr3t', { id: 'k1', secret: 's3cr3t' }],
    ['0123456789abcdef01234567:AbC-_9', { id: '0123456789abcdef01234567', secret: 'AbC-_9' }],
    ['k1:', undefined],
    [':secret', undefined],
    ['no-separator', undefined],
    ['k1|secret', undefined],
    ['k 1:secret', undefined],
    ['k1:sec:ret', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%j parses to %j', (raw, expected) => {
    expect(parseIdSecret(raw)).toEqual(expected);
  });
});

describe('API keys', () => {
  it('round-trips through its text form and shows only the prefix again', () => {
    const key = formatApiKey('AbCdEfGh1234', 'x'.repeat(43));
    expect(key).toBe(`vfk.AbCdEfGh1234.${'x'.repeat(43)}`);
    const parsed = parseApiKey(key);
    expect(parsed).toEqual({ prefix: 'AbCdEfGh1234', secret: 'x'.repeat(43) });
    expect(publicPartOf(parsed as NonNullable<typeof parsed>)).toBe('vfk.AbCdEfGh1234');
  });

  it.each(['vfk.onlyprefix', 'abc.prefix.secret', 'vfk..secret', 'vfk.pre.fix.secret', 'Bearer xyz', ''])(
    'refuses %j',
    (raw) => {
      expect(parseApiKey(raw)).toBeUndefined();
    },
  );
});
