/**
 * What the security sweep adds to the demo before it probes: items of the kinds the demo has none of (a
 * project, a recommendation, targets and reports), on a site no restricted caller reads or over the whole
 * company, and mail to Demo Estates' capture address through the local SMTP inbox and the real e-mail
 * intake and capture, with bills on sites inside and outside the bill validator's grants.
 */
import { readFileSync } from 'node:fs';
import { createTransport } from 'nodemailer';
import { fixturePath, loadTruth } from '../fixtures/invoices/truth.ts';
import type { LocalStackHandle } from '../support/local-stack.ts';
import { type Api, itemsOf, type Reader, type Register } from './security-lists.ts';

type Item = Record<string, unknown>;

/** Creates, as the owner, items no restricted caller may see; answers what failed to be made. */
export async function furnish(api: Api, owner: string, site: string): Promise<string[]> {
  const today = new Date().toISOString().slice(0, 10);
  // A report covers at most a year.
  const yearAgo = new Date(Date.now() - 360 * 86_400_000).toISOString().slice(0, 10);
  const made: [string, unknown][] = [
    ['/projects', { name: 'Roof insulation', assetId: site }],
    ['/recommendations', { title: 'LED lighting', assetId: site, reductionPercent: 12 }],
    ['/recommendations', { title: 'Company-wide heat pump review', reductionPercent: 8 }],
    [
      '/targets',
      {
        name: 'Site energy -20%',
        scope: 'site',
        scopeId: site,
        measure: 'energy',
        baselineYear: 2024,
        targetYear: 2030,
        reductionPercent: 20,
      },
    ],
    [
      '/targets',
      {
        name: 'Company emissions -40%',
        scope: 'company',
        measure: 'emissions',
        baselineYear: 2024,
        targetYear: 2030,
        reductionPercent: 40,
      },
    ],
    [
      '/reports',
      { templateId: 'site', scopeType: 'asset', scopeId: site, startDate: yearAgo, endDate: today },
    ],
    ['/reports', { templateId: 'portfolio-summary', startDate: yearAgo, endDate: today }],
  ];
  const failed: string[] = [];
  for (const [path, body] of made) {
    const { status, body: answer } = await api('POST', path, owner, body);
    if (status < 200 || status > 202)
      failed.push(`POST ${path} → ${status} ${JSON.stringify(answer).slice(0, 200)}`);
  }
  return failed;
}

/** Bills of the fixtures with one meter, by the demo account that meter is on (its MPAN). */
function billsByMeter(register: Register, meters: Map<string, string>) {
  const out: { file: string; accountId: string; assetId: string }[] = [];
  for (const fixture of loadTruth()) {
    if (fixture.invoices.length !== 1) continue;
    const mpan = (fixture.invoices[0]?.values as { meterPointNumber?: string } | undefined)?.meterPointNumber;
    const accountId = mpan ? meters.get(mpan) : undefined;
    const assetId = accountId ? register.accounts.get(accountId)?.assetId : undefined;
    if (accountId && assetId) out.push({ file: fixture.file, accountId, assetId });
  }
  return out;
}

export interface SentMail {
  what: string;
  emailId: string;
  attachments: { _id: string; captureId: string; file: string }[];
}

/**
 * Mails three bills to Demo Estates' capture address: one on a site the validator reads, one on a site
 * none of the restricted callers reads, and both in one mail; waits until intake and capture are done.
 */
export async function sendMail(
  local: LocalStackHandle,
  api: Api,
  owner: string,
  register: Register,
  validator: Reader,
  restricted: readonly Reader[],
): Promise<SentMail[]> {
  const accounts = itemsOf((await api('GET', '/accounts?limit=1000', owner)).body) as Item[];
  const meters = new Map(accounts.map((a) => [String(a.meterPointNumber), String(a._id)]));
  const bills = billsByMeter(register, meters);
  const inside = bills.find((b) => validator.site(b.assetId));
  const outside = bills.find((b) => restricted.every((r) => !r.site(b.assetId)));
  if (!inside || !outside) throw new Error('No fixture bill on a site inside or outside the grants');
  const company = (await api('GET', '/users/me/company', owner)).body as { settings?: Item };
  const to = String(company.settings?.invoiceCaptureEmail);
  const transport = createTransport({
    host: '127.0.0.1',
    port: local.smtpPort,
    secure: false,
    ignoreTLS: true,
  });
  let copy = 0;
  // Other bytes in each mail, so no copy is refused as a file already captured.
  const attachment = (file: string) => ({
    filename: file,
    content: Buffer.concat([readFileSync(fixturePath(file)), Buffer.from(`\n%mail copy ${++copy}\n`)]),
  });
  const plan = [
    { what: "a bill on the validator's site", files: [inside.file] },
    { what: 'a bill on a site no restricted caller reads', files: [outside.file] },
    { what: 'both bills in one mail', files: [inside.file, outside.file] },
  ];
  for (const [i, m] of plan.entries())
    await transport.sendMail({
      from: 'billing@supplier.example',
      to,
      subject: `Your bills ${i + 1}: ${m.what}`,
      text: 'Attached.',
      attachments: m.files.map(attachment),
    });
  transport.close();

  // Intake stores each mail; capture then reads every attachment.
  const until = Date.now() + 180_000;
  for (;;) {
    await local.drainQueues(30_000);
    const mails = (itemsOf((await api('GET', '/emails?limit=1000', owner)).body) ?? []) as Item[];
    const ours = plan.map((m) => mails.find((e) => String(e.subject).endsWith(m.what)));
    const captures = await register.load().then((r) => r.captureInvoices);
    const done = async (captureId: string) => {
      const { status, body } = await api('GET', `/invoices/${captureId}`, owner);
      return (
        status === 200 && ['captured', 'manual', 'error', 'completed'].includes(String((body as Item).status))
      );
    };
    const attachments = ours.flatMap((e) => (Array.isArray(e?.attachments) ? (e.attachments as Item[]) : []));
    const settled =
      ours.every((e) => e !== undefined) &&
      attachments.length === 4 &&
      (await Promise.all(attachments.map((a) => done(String(a.captureId))))).every(Boolean) &&
      attachments.every((a) => captures.has(String(a.captureId)));
    if (settled) {
      return plan.map((m, i) => ({
        what: m.what,
        emailId: String(ours[i]?._id),
        attachments: ((ours[i]?.attachments ?? []) as Item[]).map((a) => ({
          _id: String(a._id),
          captureId: String(a.captureId),
          file: String(a.fileName),
        })),
      }));
    }
    if (Date.now() > until)
      throw new Error(`The mail was not taken in: ${JSON.stringify(ours).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
