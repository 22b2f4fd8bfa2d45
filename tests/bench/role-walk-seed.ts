/**
 * What the role walk makes before it walks (tests/bench/role-walk.ts): the demo seed holds no discussion,
 * generated report, project, import, permission set or supplier template, so the pages that show one by id
 * would never be opened. A company's owner makes one of each through the API (staff makes the supplier
 * template), on a site each walker reads and on a site none of them reads, and the paths of the pages that
 * show them are returned to fill the walk's routes and to try as someone who may not see them.
 */

import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { DEMO_PASSWORD } from '../../infra/local/seed/demo-users.ts';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface Made {
  /** Paths to pages of what was made, those on sites the readers read first. */
  links: string[];
  /** Pages of what was made that some users may not see, with a word of it that must not be shown to them. */
  things: Thing[];
}

export interface Thing {
  what: string;
  path: string;
  /** The API's own answer for it. */
  api: string;
  secret: string;
  /** The site it is on; undefined for what only company-wide users see. */
  siteId?: string;
}

const MINIMAL_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 0/Kids[]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

export function apiClient(apiUrl: string, origin: string) {
  const tokens = new Map<string, string>();
  const tokenOf = async (email: string) => {
    let t = tokens.get(email);
    if (!t) {
      t = (await signInForToken({ baseUrl: origin, email, password: DEMO_PASSWORD })).accessToken;
      tokens.set(email, t);
    }
    return t;
  };
  return async function call(email: string, method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${await tokenOf(email)}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${apiUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < 10) {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      let parsed: Record<string, unknown> = {};
      try {
        const json: unknown = JSON.parse(text);
        if (json && typeof json === 'object' && !Array.isArray(json))
          parsed = json as Record<string, unknown>;
      } catch {
        // Not JSON: an empty body stands for it.
      }
      return { status: res.status, body: parsed };
    }
  };
}

type Call = ReturnType<typeof apiClient>;

function must(what: string, a: Answer, ...ok: number[]): Record<string, unknown> {
  if (!ok.includes(a.status)) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`);
  return a.body;
}

const idsOf = (body: Record<string, unknown>) => ((body.data ?? []) as { _id: string }[]).map((x) => x._id);

const until = async (what: string, check: () => Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what}: not done in ${ms / 1000} s`);
};

/** A thread with a reply carrying a file, on one site. */
async function thread(call: Call, owner: string, siteId: string, subject: string): Promise<string> {
  const t = must(
    'thread',
    await call(owner, 'POST', '/messages', { subject, assetId: siteId, body: subject }),
    201,
  );
  const messageId = String(t._id);
  const ticket = must(
    'attachment ticket',
    await call(owner, 'POST', '/messages/upload-attachment', {
      messageId,
      fileName: `${subject}.pdf`,
      contentType: 'application/pdf',
      size: MINIMAL_PDF.length,
    }),
    201,
  );
  const put = await fetch(String(ticket.uploadUrl), {
    method: 'PUT',
    headers: { 'content-type': 'application/pdf' },
    body: MINIMAL_PDF,
  });
  if (!put.ok) throw new Error(`attachment upload: ${put.status}`);
  must(
    'reply',
    await call(owner, 'POST', `/messages/${messageId}/replies`, {
      body: `Reply on ${subject}`,
      attachments: [{ attachmentId: ticket.attachmentId, key: ticket.key }],
    }),
    201,
  );
  return messageId;
}

/** An import taken as far as `upTo`: left for its mapping, previewed, or imported. */
async function anImport(call: Call, owner: string, name: string, upTo: 'mapping' | 'preview' | 'import') {
  const text = 'Meter,Month,kWh\nWALK-1,2025-01,1\n';
  const ticket = must(
    'import ticket',
    await call(
      owner,
      'GET',
      `/imports/upload-url?type=monthly-consumption&fileName=${encodeURIComponent(name)}&size=${text.length}`,
    ),
    201,
  );
  const id = String(ticket.id);
  const put = await fetch(String(ticket.url), {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: text,
  });
  if (!put.ok) throw new Error(`import upload: ${put.status}`);
  const state = async () => (await call(owner, 'GET', `/imports/${id}`)).body;
  await until(`import ${name} read`, async () => {
    const st = await state();
    return st.fileRead === true || st.status === 'error';
  });
  if (upTo !== 'mapping')
    must('import preview', await call(owner, 'POST', `/imports/${id}/preview`), 200, 202);
  if (upTo === 'import') {
    must('import run', await call(owner, 'POST', `/imports/${id}/import`), 200, 202);
    await until(`import ${name} run`, async () =>
      ['completed', 'error'].includes(String((await state()).status)),
    );
  }
  return id;
}

/**
 * One of each thing the walk's id routes show, in the company `owner` owns, with readers' sites first.
 * `staff` makes the supplier template; `tag` names what is made so pages showing it can be told apart.
 */
export async function makeWalkObjects(
  call: Call,
  owner: string,
  readers: readonly string[],
  staff: string,
  tag: string,
): Promise<Made> {
  const links: string[] = [];
  const things: Thing[] = [];
  const sites = idsOf(must('sites', await call(owner, 'GET', '/assets?limit=100'), 200));
  const read = new Set<string>();
  const readerSites: string[] = [];
  for (const r of readers) {
    const theirs = idsOf(must('reader sites', await call(r, 'GET', '/assets?limit=100'), 200));
    for (const s of theirs) read.add(s);
    if (theirs[0] && !readerSites.includes(theirs[0])) readerSites.push(theirs[0]);
  }
  if (readerSites.length === 0 && sites[0]) readerSites.push(sites[0]);
  const unread = sites.find((s) => !read.has(s));

  // Readers' sites first, so a walker missing its own link is sent to one it reads.
  const onSites = [
    ...readerSites.map((s) => ({ site: s, word: 'read' })),
    ...(unread ? [{ site: unread, word: 'unread' }] : []),
  ];
  for (const [i, { site, word }] of onSites.entries()) {
    const subject = `${tag} ${word} thread ${i + 1}`;
    const id = await thread(call, owner, site, subject);
    const path = `/assets/${site}/discussion/${id}`;
    links.push(path);
    things.push({
      what: `thread on a ${word} site`,
      path,
      api: `/messages/${id}`,
      secret: subject,
      siteId: site,
    });
    const name = `${tag} ${word} project ${i + 1}`;
    const project = must('project', await call(owner, 'POST', '/projects', { name, assetId: site }), 201);
    const projectPath = `/assets/${site}/projects/${project._id}`;
    links.push(projectPath, `${projectPath}/edit`);
    things.push({
      what: `project on a ${word} site`,
      path: projectPath,
      api: `/projects/${project._id}`,
      secret: name,
      siteId: site,
    });
    if (word === 'read') links.push(`/assets/${site}/reports/site/download`);
  }

  const YEAR = { startDate: '2025-01-01', endDate: '2025-12-31' };
  const report = must(
    'report',
    await call(owner, 'POST', '/reports/generate2', {
      templateId: 'portfolio-summary',
      scopeType: 'company',
      ...YEAR,
      format: 'pdf',
    }),
    202,
  );
  const reportId = String(report._id);
  await until('report built', async () =>
    ['ready', 'failed'].includes(String((await call(owner, 'GET', `/reports/${reportId}`)).body.status)),
  );
  links.push(`/reports/${reportId}/download`, `/reports/${reportId}/chart`);
  things.push({
    what: "the owner's company report",
    path: `/reports/${reportId}/download`,
    api: `/reports/${reportId}`,
    secret: String(report.name ?? 'Portfolio summary'),
  });

  const portfolios = idsOf(must('portfolios', await call(owner, 'GET', '/asset-groups?limit=5'), 200));
  for (const p of portfolios.slice(0, 1))
    links.push(`/portfolios/${p}/reports`, `/portfolios/${p}/reports/portfolio-summary/download`);

  const importIds = {
    mapping: await anImport(call, owner, `${tag}-walk-mapping.csv`, 'mapping'),
    preview: await anImport(call, owner, `${tag}-walk-preview.csv`, 'preview'),
    import: await anImport(call, owner, `${tag}-walk-import.csv`, 'import'),
  };
  for (const [step, id] of Object.entries(importIds)) links.push(`/imports/wizard/${id}/${step}`);
  links.push(`/imports/${importIds.import}/detail`);
  things.push({
    what: "the owner's import",
    path: `/imports/${importIds.import}/detail`,
    api: `/imports/${importIds.import}`,
    secret: `${tag}-walk-import`,
  });

  const set = must(
    'permission set',
    await call(owner, 'POST', '/permissions', {
      name: `${tag} walk set`,
      grants: { assets: { read: readerSites.slice(0, 1), write: [] } },
    }),
    201,
  );
  links.push(`/company/permissions/${set._id}/edit`);

  for (const e of idsOf(must('entities', await call(owner, 'GET', '/entities?limit=5'), 200)).slice(0, 1))
    links.push(`/entities/${e}/edit`);

  const suppliers = idsOf(must('suppliers', await call(staff, 'GET', '/suppliers?limit=5'), 200));
  const supplier = suppliers[0];
  if (supplier) {
    must(
      'template',
      await call(staff, 'POST', '/templates', {
        supplierId: supplier,
        type: 'electricity',
        name: `${tag} walk`,
      }),
      201,
      409,
    );
    links.push(`/suppliers/${supplier}/edit`);
    for (const type of ['electricity', 'solar', 'gas', 'water', 'waste', 'heating', 'cooling'])
      links.push(`/suppliers/${supplier}/templates/${type}`);
  }
  return { links, things };
}
