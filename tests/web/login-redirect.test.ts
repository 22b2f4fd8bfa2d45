import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_REDIRECT_DELAY_MS } from '../../shared/constants.ts';
import { loginPath, safeReturnUrl, scheduleLoginRedirect } from '../../web/lib/login-redirect.ts';

describe('the /login countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('redirects to the provider after 3 seconds, not before', () => {
    const redirect = vi.fn();
    scheduleLoginRedirect(redirect);
    vi.advanceTimersByTime(LOGIN_REDIRECT_DELAY_MS - 1);
    expect(redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(LOGIN_REDIRECT_DELAY_MS).toBe(3000);
  });

  it('does not redirect once the page is left', () => {
    const redirect = vi.fn();
    const cancel = scheduleLoginRedirect(redirect);
    vi.advanceTimersByTime(1000);
    cancel();
    vi.advanceTimersByTime(10_000);
    expect(redirect).not.toHaveBeenCalled();
  });
});

describe('the return URL', () => {
  it('keeps a path of the app with its query', () => {
    expect(safeReturnUrl('/assets/a1/overview?tab=2')).toBe('/assets/a1/overview?tab=2');
    expect(loginPath('/assets?x=1')).toBe('/login?returnUrl=%2Fassets%3Fx%3D1');
  });

  it('never returns to another site', () => {
    expect(safeReturnUrl('https://evil.example/')).toBe('/');
    expect(safeReturnUrl('//evil.example/path')).toBe('/');
    expect(safeReturnUrl('/\\evil.example')).toBe('/');
    expect(safeReturnUrl('javascript:alert(1)')).toBe('/');
  });

  it('never returns to the sign-in pages themselves', () => {
    expect(safeReturnUrl('/login?returnUrl=%2F')).toBe('/');
    expect(safeReturnUrl('/logout')).toBe('/');
    expect(safeReturnUrl('/auth/callback?code=x')).toBe('/');
    expect(loginPath('/')).toBe('/login');
  });

  it('falls back to the dashboard without one', () => {
    expect(safeReturnUrl(null)).toBe('/');
    expect(safeReturnUrl('')).toBe('/');
  });
});
