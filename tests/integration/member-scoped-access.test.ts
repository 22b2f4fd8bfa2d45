import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRef, putItem } from '../../functions/core/data/item-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { registerUpload } from '../../functions/invoices/upload-registration.ts';
import { type InvoiceAccountWorld, putCompanyItem, startInvoiceAccountWorld } from './invoices-support.ts';

/**
 * What a member with grants reaches through the side doors of bills (the capture inbox's mail and its
 * attachments, the capture upload) and what any member reaches of other members' notifications.
 */
let w: InvoiceAccountWorld;
/** A bill validation user who may read and write the world's account's site, and nothing else. */
let validator: string;
/** An account on a site the validator has no grant on. */
let otherAccountId: string;
/** An account the validator may read but not write. */
let readOnlyAccountId: string;

interface Listed {
  data: Record<string, unknown>[];
  total: number;
}

async function accountOnNewSite(siteName: string): Promise<[string, string]> {
  const assetId = newId();
  const accountId = newId();
  await putCompanyItem(w.demoId, 'assets', ['entityId'], { _id: assetId, siteName, images: [] });
  await putCompanyItem(w.demoId, 'accounts', ['assetId', 'supplierId'], {
    _id: accountId,
    assetId,
    type: 'electricity',
    name: `${siteName} incomer`,
  });
  return [assetId, accountId];
}

/** A mail whose attachment became a bill on this account (none: a bill not yet matched to one). */
async function mailWithBill(accountId: string | undefined, subject: string) {
  const emailId = newId();
  const captureId = newId();
  const key = `invoices/${w.demoId}/${captureId}/bill.pdf`;
  await registerUpload(w.demoId, {
    captureId,
    batchId: captureId,
    fileName: 'bill.pdf',
    key,
    size: 100,
    contentType: 'application/pdf',
    source: 'email',
    emailId,
    ...(accountId ? { accountId } : {}),
  });
  // Stored as intake stores mail, with the text search reads.
  const now = new Date().toISOString();
  await putItem(declaredRef('emails', { companyId: w.demoId }), {
    createdAt: now,
    updatedAt: now,
    companyId: w.demoId,
    _id: emailId,
    from: 'billing@supplier.example',
    subject,
    status: 'accepted',
    attachments: [{ _id: `${emailId}-1`, captureId, fileName: 'bill.pdf', key, size: 100 }],
  });
  return { emailId, attachmentId: `${emailId}-1`, invoiceId: captureId };
}

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Temple Quay',
    meterPointNumber: '1312345678907',
    name: 'Main incomer',
  });
  [, otherAccountId] = await accountOnNewSite('Harbourside');
  const [readOnlyAssetId, readOnly] = await accountOnNewSite('Canons Marsh');
  readOnlyAccountId = readOnly;
  validator = await w.addUser('validator', ['bill_validation'], {
    assets: { read: [w.assetId, readOnlyAssetId], write: [w.assetId] },
  });
});

afterAll(async () => w?.stop());

describe('the capture inbox', () => {
  it("lists to a member with grants only the mail whose bills they may read, and refuses another account's attachment", async () => {
    const mine = await mailWithBill(w.accountId, 'Temple Quay bill');
    const theirs = await mailWithBill(otherAccountId, 'Harbourside bill');
    const unmatched = await mailWithBill(undefined, 'Bill for an unknown meter');
    await putCompanyItem(w.demoId, 'emails', [], {
      _id: newId(),
      from: 'someone@example.com',
      subject: 'No attachment',
      status: 'refused',
      attachments: [],
    });

    const asOwner = (await w.call('GET', '/emails')).body as unknown as Listed;
    expect(asOwner.total).toBe(4);

    const asValidator = (await w.call('GET', '/emails', undefined, validator)).body as unknown as Listed;
    expect(asValidator.data.map((e) => e.subject).sort()).toEqual([
      'Bill for an unknown meter',
      'Temple Quay bill',
    ]);
    expect(asValidator.total).toBe(2);

    const download = (m: { emailId: string; attachmentId: string }, token: string) =>
      w.call('GET', `/emails/${m.emailId}/attachments/${m.attachmentId}/download`, undefined, token);
    expect((await download(mine, validator)).status).toBe(200);
    expect((await download(unmatched, validator)).status).toBe(200);
    // The same answer as the bill's own download gives them.
    expect((await w.call('GET', `/invoices/${theirs.invoiceId}/download`, undefined, validator)).status).toBe(
      404,
    );
    expect((await download(theirs, validator)).status).toBe(404);
    expect((await download(theirs, w.owner)).status).toBe(200);
  });
});

describe('the capture inbox by id and by search', () => {
  it('answers a member with grants only the mail whose bills they may read, whichever way it is asked for', async () => {
    const mine = await mailWithBill(w.accountId, 'Gasworks bill for Temple Quay');
    const theirs = await mailWithBill(otherAccountId, 'Gasworks bill for Harbourside');
    const one = (id: string, token: string) => w.call('GET', `/emails/${id}`, undefined, token);
    expect((await one(mine.emailId, validator)).status).toBe(200);
    expect((await one(theirs.emailId, validator)).status).toBe(404);
    expect((await one(theirs.emailId, w.owner)).status).toBe(200);

    const found = async (token: string) =>
      (
        (await w.call('GET', '/emails/search?query=Gasworks', undefined, token)).body as unknown as Listed
      ).data
        .map((e) => e.subject)
        .sort();
    expect(await found(validator)).toEqual(['Gasworks bill for Temple Quay']);
    expect(await found(w.owner)).toEqual(['Gasworks bill for Harbourside', 'Gasworks bill for Temple Quay']);
  });
});

describe('the capture upload', () => {
  const upload = (accountId: string, token = validator) =>
    w.call(
      'POST',
      '/invoice-capture/upload',
      { fileName: 'bill.pdf', contentType: 'application/pdf', size: 100, accountId },
      token,
    );

  it('files a document only on an account the caller may write, and answers the same for not yours and not there', async () => {
    const notYours = await upload(otherAccountId);
    expect(notYours.status).toBe(400);
    expect(notYours.body.formMessages).toEqual({ accountId: 'Account not found' });
    const missing = await upload(newId());
    expect(missing.status).toBe(400);
    expect(missing.body.formMessages).toEqual({ accountId: 'Account not found' });
    const readOnly = await upload(readOnlyAccountId);
    expect(readOnly.body.formMessages).toEqual({ accountId: 'You may not add invoices to this account' });

    expect((await upload(w.accountId)).status).toBe(201);
    expect((await upload(otherAccountId, w.owner)).status).toBe(201);
  });
});

describe('notifications', () => {
  it("shows each member their own notifications only, and lets nobody change another's", async () => {
    const ownersNote = newId();
    const validatorsNote = newId();
    await putCompanyItem(w.demoId, 'notifications', ['userSub'], {
      _id: ownersNote,
      userSub: 'owner',
      content: 'Bills missing for Temple Quay',
      isSeen: false,
    });
    await putCompanyItem(w.demoId, 'notifications', ['userSub'], {
      _id: validatorsNote,
      userSub: 'validator',
      content: 'Three bills wait for you',
      isSeen: false,
    });

    const listed = (await w.call('GET', '/notifications', undefined, validator)).body as unknown as Listed;
    expect(listed.data.map((n) => n._id)).toEqual([validatorsNote]);
    const asked = (await w.call('GET', '/notifications?userSub=owner', undefined, validator))
      .body as unknown as Listed;
    expect(asked.data.map((n) => n._id)).toEqual([]);
    const searched = (await w.call('GET', '/notifications/search?query=Temple', undefined, validator))
      .body as unknown as Listed;
    expect(searched.total).toBe(0);
    expect((await w.call('GET', `/notifications/${ownersNote}`, undefined, validator)).status).toBe(404);
    expect((await w.call('GET', `/notifications/${validatorsNote}`, undefined, validator)).status).toBe(200);

    // A company administrator (the owner here) is a member like any other.
    const ownersList = (await w.call('GET', '/notifications')).body as unknown as Listed;
    expect(ownersList.data.map((n) => n._id)).toEqual([ownersNote]);
    expect((await w.call('PATCH', `/notifications/${validatorsNote}`, { isSeen: true })).status).toBe(404);
    expect((await w.call('DELETE', `/notifications/${validatorsNote}`)).status).toBe(404);
    expect(
      (await w.call('GET', `/notifications/${validatorsNote}`, undefined, validator)).body,
    ).toMatchObject({
      isSeen: false,
    });
    expect((await w.call('PATCH', `/notifications/${ownersNote}`, { isSeen: true })).status).toBe(200);
    const forSomeoneElse = await w.call('POST', '/notifications', {
      userSub: 'validator',
      content: 'Planted',
      isSeen: false,
    });
    expect(forSomeoneElse.status).toBe(403);
  });
});
