/**
 * The security headers of the app and API responses, the same from CloudFront in AWS and from the local
 * stack's gateway, so a page that breaks under the policy breaks locally first.
 */

export interface PolicySources {
  /**
   * Origins the app calls besides its own: the sign-in provider's token endpoint, the WebSocket API and
   * the buckets presigned uploads and downloads go to. Locally every one of them is the page's origin.
   */
  connect?: readonly string[];
}

/**
 * What the SPA needs and no more: its own scripts (no inline script, no eval: PDF.js runs with eval off),
 * inline styles (Mantine writes style attributes and a style element), images from presigned URLs and
 * data/blob URLs (canvas snapshots, logos), its PDF worker, and calls to its own origin plus `connect`.
 * No page may frame the app (clickjacking), and forms post only to the app (the local sign-in pages).
 */
export function contentSecurityPolicy(sources: PolicySources = {}): string {
  const connect = ["'self'", ...(sources.connect ?? [])];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers every app and API response carries. */
export function securityHeaders(sources: PolicySources = {}): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(sources),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}
