import type { DataRequestKind } from '../../shared/schemas/automation.ts';
import { allAccounts } from '../accounts/index.ts';
import { findAsset } from '../assets/index.ts';
import { getCompany } from '../company/index.ts';
import { mailer, type OutboundEmail } from '../core/adapters/mailer.ts';
import type { Logger } from '../core/lib/logger.ts';
import type { Automation } from './automation-repository.ts';
import type { AutomationErrorCode } from './automation-templates.ts';

const ASKED: Record<DataRequestKind, string> = {
  readings: 'a reading of each meter below, with the date it was read',
  bill: 'your latest bill for this site',
  'readings-or-bill': 'a reading of each meter below (with the date read), or your latest bill',
};

export type DataRequestOutcome =
  | { ok: true; mail: OutboundEmail }
  | { ok: false; code: Extract<AutomationErrorCode, 'no-contact' | 'no-reply-address'> };

/**
 * The request a data-request automation e-mails: what it asks for, about which site and meters, with the
 * company's bill inbox as the address to reply to, so the contact answers without signing in and what
 * they attach reaches capture as an e-mailed bill does.
 */
export async function dataRequestMail(
  companyId: string,
  automation: Automation,
): Promise<DataRequestOutcome> {
  if (!automation.contactEmail) return { ok: false, code: 'no-contact' };
  const company = await getCompany(companyId);
  const inbox = company?.settings?.invoiceCaptureEmail;
  if (!inbox) return { ok: false, code: 'no-reply-address' };
  const site = automation.assetId ? await findAsset(companyId, automation.assetId) : undefined;
  const meters = site
    ? (await allAccounts(companyId)).filter((a) => a.assetId === site._id && a.deleted !== true)
    : [];
  const kind = automation.requestKind ?? 'readings-or-bill';
  const address = site?.address
    ? [site.address.streetAddress, site.address.locality, site.address.postCode].filter(Boolean).join(', ')
    : undefined;
  const about = site ? `${site.siteName}${address ? ` (${address})` : ''}` : undefined;
  const meterLines = meters.map((m) => {
    const ids = [
      m.meterPointNumber ? `meter point ${m.meterPointNumber}` : undefined,
      m.meterSerialNumber ? `serial ${m.meterSerialNumber}` : undefined,
    ].filter(Boolean);
    return `  - ${m.name ?? m.type}${ids.length ? `: ${ids.join(', ')}` : ''}`;
  });
  const text = [
    `Hello${automation.contactName ? ` ${automation.contactName}` : ''},`,
    '',
    `${company?.name ?? 'We'} would like ${ASKED[kind]}${about ? ` for ${about}` : ''}.`,
    ...(meterLines.length ? ['', 'Meters:', ...meterLines] : []),
    '',
    'Please reply to this e-mail with the readings in the message, or a photo or PDF of the bill attached.',
    `Your reply goes to ${inbox}; there is nothing to sign in to.`,
    '',
    'Thank you.',
  ].join('\n');
  return {
    ok: true,
    mail: {
      to: automation.contactEmail,
      replyTo: inbox,
      subject: `${kind === 'bill' ? 'Bill' : 'Meter readings'} requested${site ? `: ${site.siteName}` : ''}`,
      text,
    },
  };
}

export async function sendDataRequest(
  companyId: string,
  automation: Automation,
  log: Logger,
): Promise<DataRequestOutcome> {
  const outcome = await dataRequestMail(companyId, automation);
  if (!outcome.ok) return outcome;
  const { messageId } = await mailer().send(outcome.mail);
  log.info('data request sent', { automationId: automation._id, messageId });
  return outcome;
}
