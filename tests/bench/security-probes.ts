/**
 * The content, file and token parts of the security sweep, against a seeded local stack (the
 * authorisation part is security.ts):
 * - stored script: payloads in the free text that is shown again (site names, discussion subjects and
 *   bodies, tags, report and report template names, file names), then every list the owner reads is
 *   checked to answer as JSON, never HTML, and a file download to be an attachment of a safe type;
 * - files whose bytes disagree with their name or declared type, declared sizes over the limit, bodies
 *   larger than declared and path traversal in file names;
 * - tokens: expired, another audience or issuer, alg none, a changed payload, a key of our own, an ID
 *   token, and the tokens of removed or deleted users; API and machine keys after they are revoked.
 * Prints the probes per category and lists every one that did not hold.
 */
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';
import { HTTP_ROUTES } from '../../shared/system/routes.ts';
import { startLocalStack } from '../support/local-stack.ts';

type Category = 'stored script' | 'downloads' | 'files' | 'tokens' | 'keys';
const tally = new Map<Category, { held: number; failed: number }>();
const failures: string[] = [];
function check(category: Category, what: string, held: boolean, detail = '') {
  const t = tally.get(category) ?? { held: 0, failed: 0 };
  if (held) t.held++;
  else {
    t.failed++;
    failures.push(`${category}: ${what}${detail ? ` (${detail})` : ''}`);
  }
  tally.set(category, t);
}

const PAYLOADS = [
  '<script>window.__xss=1</script>',
  '"><img src=x onerror="window.__xss=1">',
  'javascript:window.__xss=1',
  '<svg onload="window.__xss=1"><script>window.__xss=1</script></svg>',
];

const local = await startLocalStack({ seed: true });
const tokenOf = async (email: string) =>
  (await signInForToken({ baseUrl: local.origin, email, password: DEMO_PASSWORD })).accessToken;

interface Answer {
  status: number;
  type: string;
  text: string;
  body: Record<string, unknown>;
  headers: Headers;
}

async function call(
  method: string,
  path: string,
  auth: Record<string, string> | string | undefined,
  body?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> =
    typeof auth === 'string' ? { authorization: `Bearer ${auth}` } : { ...(auth ?? {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${local.apiUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    const text = await res.text();
    if (res.status === 429 && attempt < 10) {
      await new Promise((r) => setTimeout(r, 1000 * (Number(res.headers.get('retry-after')) || 1)));
      continue;
    }
    let parsed: Record<string, unknown> = {};
    try {
      const json: unknown = JSON.parse(text);
      if (json && typeof json === 'object' && !Array.isArray(json)) parsed = json as Record<string, unknown>;
    } catch {
      // Not JSON: the text is kept as it is.
    }
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text,
      body: parsed,
      headers: res.headers,
    };
  }
}

const MINIMAL_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 0/Kids[]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

try {
  const owner = await tokenOf('owner@demo.test');
  const staff = await tokenOf('admin@voltfolio.test');
  const demoId = (await call('GET', '/users/me/company', owner)).body._id as string;
  const assets = (await call('GET', '/assets?limit=5', owner)).body.data as { _id: string }[];
  const accounts = (await call('GET', '/accounts?limit=5', owner)).body.data as { _id: string }[];
  const assetId = assets[0]?._id as string;

  // ——— stored script ———
  const stored: string[] = [];
  const store = async (what: string, method: string, path: string, body: unknown) => {
    const answer = await call(method, path, owner, body);
    check(
      'stored script',
      `${what} stored through the API`,
      answer.status < 300,
      `${answer.status} ${answer.text.slice(0, 160)}`,
    );
    check(
      'stored script',
      `${what} answered as JSON`,
      answer.type.startsWith('application/json'),
      answer.type,
    );
    return answer;
  };
  await store('site name', 'PATCH', `/assets/${assets[1]?._id}`, { siteName: PAYLOADS[1] });
  await store('tags', 'PATCH', `/accounts/${accounts[0]?._id}`, {
    tags: PAYLOADS.map((p) => p.slice(0, 50)),
  });
  const threads: string[] = [];
  for (const payload of PAYLOADS) {
    const thread = await store('discussion', 'POST', '/messages', {
      subject: payload,
      body: payload,
      assetId,
    });
    if (thread.body?._id) threads.push(String(thread.body._id));
  }
  await store('report template name and text', 'POST', '/report-templates', {
    name: PAYLOADS[0],
    description: PAYLOADS[3],
    sections: [{ kind: 'text', title: PAYLOADS[2], text: PAYLOADS[1] }],
  });
  await store('report name', 'POST', '/reports', {
    templateId: 'portfolio-summary',
    name: PAYLOADS[1],
    startDate: '2025-01-01',
    endDate: '2025-12-31',
  });
  stored.push(...PAYLOADS);

  // Every list and the created threads, read back: JSON only, whatever they hold.
  const reads = [
    ...HTTP_ROUTES.filter((r) => r.method === 'GET' && !r.path.includes('{')).map((r) => r.path),
    ...threads.map((id) => `/messages/${id}`),
  ];
  let echoed = 0;
  for (const path of reads) {
    const answer = await call('GET', path, owner);
    if (answer.status >= 300) continue;
    if (stored.some((p) => answer.text.includes(p))) echoed++;
    const safe = !/text\/html|image\/svg|application\/xhtml/.test(answer.type);
    check('stored script', `GET ${path} is not HTML`, safe, answer.type);
    check(
      'stored script',
      `GET ${path} says nosniff`,
      answer.headers.get('x-content-type-options') === 'nosniff',
    );
  }
  console.log(`${reads.length} reads after storing; ${echoed} answers held a payload, as JSON text`);

  // ——— files and downloads ———
  const thread = threads[0] as string;
  /** Asks for an upload URL, PUTs the bytes, and offers the file to the thread's opening post. */
  const attach = async (
    fileName: string,
    contentType: string,
    bytes: Uint8Array,
    declared = bytes.length,
  ) => {
    const asked = await call('POST', '/messages/upload-attachment', owner, {
      messageId: thread,
      fileName,
      contentType,
      size: declared,
    });
    if (asked.status !== 201) return { asked, put: undefined, attached: undefined };
    const put = await fetch(String(asked.body.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: Buffer.from(bytes),
    });
    const attached = await call('POST', `/messages/${thread}/attachments`, owner, {
      attachments: [{ attachmentId: asked.body.attachmentId, key: asked.body.key }],
    });
    return { asked, put, attached };
  };
  const text = (s: string) => new TextEncoder().encode(s);
  const html = text(`<!doctype html><html><body>${PAYLOADS[0]}</body></html>`);
  const svg = text(`<?xml version="1.0"?>${PAYLOADS[3]}`);

  for (const [name, type, bytes] of [
    ['statement.pdf', 'application/pdf', html],
    ['statement.pdf', 'application/pdf', svg],
    ['photo.png', 'image/png', svg],
    ['page.html', 'text/html', html],
  ] as const) {
    const { asked, attached } = await attach(name, type, bytes);
    const refused = asked.status === 400 || (attached !== undefined && attached.status === 400);
    const message = JSON.stringify(attached?.body ?? asked.body);
    check(
      'files',
      `${name} (${type}) holding ${bytes === html ? 'HTML' : 'SVG'} is refused`,
      refused,
      message.slice(0, 160),
    );
    check('files', `and the refusal says why`, /PDF|picture|type/i.test(message), message.slice(0, 160));
  }
  const big = await call('POST', '/messages/upload-attachment', owner, {
    messageId: thread,
    fileName: 'big.pdf',
    contentType: 'application/pdf',
    size: 500 * 1024 * 1024,
  });
  check(
    'files',
    'a declared size over the limit is refused with a message',
    big.status === 400 && /20 MB/.test(big.text),
    big.text.slice(0, 160),
  );
  const short = await call('POST', '/messages/upload-attachment', owner, {
    messageId: thread,
    fileName: 'small.pdf',
    contentType: 'application/pdf',
    size: 1024,
  });
  const larger = await fetch(String(short.body.uploadUrl), {
    method: 'PUT',
    headers: { 'content-type': 'application/pdf' },
    body: new Uint8Array(64 * 1024),
  });
  check('files', 'a body larger than declared is not stored', larger.status >= 400, String(larger.status));
  for (const name of [
    '../../../etc/passwd.pdf',
    '..\\..\\windows\\win.ini.pdf',
    `${'a/'.repeat(20)}x.pdf`,
    '%2e%2e%2fx.pdf',
  ]) {
    const asked = await call('POST', '/messages/upload-attachment', owner, {
      messageId: thread,
      fileName: name,
      contentType: 'application/pdf',
      size: 100,
    });
    const key = String(asked.body?.key ?? '');
    const tail = key.split('/').pop() ?? '';
    check(
      'files',
      `path traversal in the file name ${name} stays in its folder`,
      asked.status === 400 ||
        (!key.includes('..') &&
          !tail.includes('\\') &&
          key.split('/').length === String(short.body.key).split('/').length),
      key,
    );
  }

  // A real PDF under a name with script in it, declared as HTML: downloaded as an attachment, not a page.
  const pdf = text(MINIMAL_PDF);
  for (const [name, type] of [
    [`${PAYLOADS[1]}.pdf`, 'application/pdf'],
    ['bill.pdf', 'text/html'],
    ['bill.pdf', 'image/svg+xml'],
  ] as const) {
    const { attached } = await attach(name, type, pdf);
    check(
      'downloads',
      `a PDF named ${name} declared ${type} is kept`,
      attached?.status === 200,
      attached?.text.slice(0, 160),
    );
    const file = (attached?.body.attachments as { attachmentId: string }[] | undefined)?.at(-1);
    if (!file) continue;
    const link = await call('GET', `/messages/${thread}/attachments/${file.attachmentId}/download`, owner);
    const got = await fetch(String(link.body.downloadUrl ?? link.body.url));
    await got.arrayBuffer();
    const disposition = got.headers.get('content-disposition') ?? '';
    const type2 = got.headers.get('content-type') ?? '';
    check(
      'downloads',
      `${name} (${type}) is downloaded as an attachment`,
      /^attachment/.test(disposition),
      disposition,
    );
    check(
      'downloads',
      `${name} (${type}) is downloaded with a safe type`,
      !/html|svg|xml|javascript/.test(type2),
      type2,
    );
    check(
      'downloads',
      `${name} names no markup in its Content-Disposition`,
      !/[<>"]/.test(disposition.replace(/^attachment; filename="/, '').replace(/"$/, '')),
      disposition,
    );
  }

  // ——— tokens ———
  const keysFile = JSON.parse(await readFile(join(local.stateDir, 'oidc', 'keys.json'), 'utf8')) as {
    jwks: { keys: (Record<string, unknown> & { kid: string })[] };
  };
  const jwk = keysFile.jwks.keys[0] as Record<string, unknown> & { kid: string };
  const providerKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const [h, p] = owner.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>;
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
  const signed = (head: Record<string, unknown>, body: Record<string, unknown>, key = providerKey) => {
    const input = `${b64(head)}.${b64(body)}`;
    return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
  };
  const now = Math.floor(Date.now() / 1000);
  const strangerKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const staffClaims = (await call('GET', '/users/me', staff)).body as { _id?: string; sub?: string };
  const bad: [string, string][] = [
    ['expired', signed(header, { ...claims, iat: now - 7200, exp: now - 3600 })],
    ['another audience', signed(header, { ...claims, aud: 'https://api.elsewhere.test' })],
    ['another issuer', signed(header, { ...claims, iss: 'https://issuer.elsewhere.test/oidc' })],
    ['another client', signed(header, { ...claims, client_id: 'someone-else' })],
    ['alg none', `${b64({ ...header, alg: 'none' })}.${b64(claims)}.`],
    [
      'payload changed, signature kept',
      `${h}.${b64({ ...claims, sub: staffClaims.sub ?? staffClaims._id ?? 'x' })}.${owner.split('.')[2]}`,
    ],
    [
      'signature changed',
      `${h}.${p}.${(owner.split('.')[2] as string).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
    ],
    ['signed by another key with the provider kid', signed(header, claims, strangerKey)],
    ['no expiry', signed(header, Object.fromEntries(Object.entries(claims).filter(([k]) => k !== 'exp')))],
    ['not yet valid', signed(header, { ...claims, nbf: now + 3600, iat: now + 3600, exp: now + 7200 })],
    ['not an access token (typ JWT)', signed({ ...header, typ: 'JWT' }, claims)],
    ['garbage', 'not.a.token'],
  ];
  const refusals = new Set<string>();
  for (const [what, token] of bad) {
    for (const [method, path] of [
      ['GET', '/users/me'],
      ['GET', '/assets'],
      ['GET', `/companies/${demoId}/users`],
    ] as const) {
      const answer = await call(method, path, token);
      check('tokens', `${what}: ${method} ${path} is 401`, answer.status === 401, `${answer.status}`);
      refusals.add(answer.text.replace(/"correlationId":"[^"]*"/, ''));
    }
  }
  check('tokens', 'every bad token gets the same answer', refusals.size === 1, [...refusals].join(' | '));
  const leaks = [...refusals].filter((t) =>
    /expired at|audience|issuer|signature|alg|kid|jwks|stack|at \//i.test(t),
  );
  check('tokens', 'the answer names no check that failed', leaks.length === 0, leaks.join(' | '));

  // A removed member's and a deleted user's tokens, still in date.
  const members = (await call('GET', `/companies/${demoId}/users?limit=100`, owner)).body.data as {
    _id: string;
    email: string;
  }[];
  const subOf = (email: string) => members.find((m) => m.email === email)?._id as string;
  for (const [email, remove] of [
    ['user@demo.test', (sub: string) => call('DELETE', `/companies/${demoId}/users/${sub}`, owner)],
    ['account@demo.test', (sub: string) => call('DELETE', `/users/${sub}`, staff)],
  ] as const) {
    const token = await tokenOf(email);
    const before = await call('GET', '/assets', token);
    const removed = await remove(subOf(email));
    const after = await call('GET', '/assets', token);
    const me = await call('GET', '/users/me', token);
    check('tokens', `${email} reads before removal`, before.status === 200, `${before.status}`);
    check(
      'tokens',
      `${email} is removed (${removed.status})`,
      removed.status < 300,
      removed.text.slice(0, 120),
    );
    check(
      'tokens',
      `${email}'s token is refused once they are removed`,
      after.status === 401 && me.status === 401,
      `${after.status} ${me.status}`,
    );
    check(
      'tokens',
      `${email}'s refusal says no more than a bad token's`,
      !/member|deleted|removed|profile/i.test(after.text),
      after.text,
    );
  }

  // ——— API and machine keys after revocation ———
  const siteUser = await tokenOf('site@demo.test');
  await call('POST', '/users/me/api-setup', siteUser);
  const first = String((await call('POST', '/users/me/api-key', siteUser)).body.key);
  check('keys', 'a new API key works', (await call('GET', '/assets', { 'x-api-key': first })).status === 200);
  const second = String((await call('POST', '/users/me/api-key', siteUser)).body.key);
  for (const path of ['/assets', '/users/me', '/accounts']) {
    const answer = await call('GET', path, { 'x-api-key': first });
    check(
      'keys',
      `a replaced API key is refused at once on ${path}`,
      answer.status === 401,
      `${answer.status}`,
    );
  }
  check(
    'keys',
    'its replacement works',
    (await call('GET', '/assets', { 'x-api-key': second })).status === 200,
  );

  const machine = await call('POST', '/machines', owner, {
    name: 'Probe meter reader',
    permissions: ['company_user'],
  });
  const xKey = String(machine.body.xKey);
  const machinePaths = ['/assets', '/accounts', '/readings'];
  for (const path of machinePaths) {
    const answer = await call('GET', path, { 'x-key': xKey });
    check('keys', `a new machine key works on ${path}`, answer.status === 200, `${answer.status}`);
  }
  const revoked = await call('DELETE', `/machines/${machine.body._id}`, owner);
  check('keys', 'the machine key is revoked', revoked.status === 204, `${revoked.status}`);
  for (const path of machinePaths) {
    const answer = await call('GET', path, { 'x-key': xKey });
    check(
      'keys',
      `a revoked machine key is refused at once on ${path}`,
      answer.status === 401,
      `${answer.status}`,
    );
  }

  console.table(Object.fromEntries(tally));
  console.log(failures.length === 0 ? 'Every probe held.' : failures.join('\n'));
} finally {
  await local.stop();
}
