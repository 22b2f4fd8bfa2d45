import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountsWorld,
  JPEG_BYTES,
  MPANS,
  minimalPdf,
  PNG_BYTES,
  putTo,
  startAccountsWorld,
} from './register-accounts-support.ts';

let w: AccountsWorld;
let owner: string;
let accountId: string;
let otherAccountId: string;

const CONTRACT = { name: 'EDF fixed 2025–27', startDate: '2025-04-01', endDate: '2027-03-31' };

/** Asks for an upload, PUTs the bytes and gives back the file reference to attach. */
async function uploadContractFile(account: string, bytes: Uint8Array, fileName = 'contract.pdf') {
  const res = await w.api({
    method: 'POST',
    path: `/accounts/${account}/contracts/upload`,
    token: owner,
    body: { fileName, size: bytes.length },
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'application/pdf' } });
  expect(await putTo(String(res.body.uploadUrl), bytes, 'application/pdf')).toBe(200);
  return { key: String(res.body.key), name: fileName };
}

beforeAll(async () => {
  w = await startAccountsWorld({ s3: true });
  owner = w.token('owner');
  const create = async (body: Record<string, unknown>) =>
    String((await w.api({ method: 'POST', path: '/accounts/from-wizard', token: owner, body })).body._id);
  accountId = await create({ assetId: w.assetA, type: 'electricity', meterPointNumber: MPANS[0] });
  otherAccountId = await create({ assetId: w.assetB, type: 'electricity', meterPointNumber: MPANS[1] });
});

afterAll(async () => w?.stop());

describe('contracts', () => {
  it('attaches an uploaded PDF, lists it by name and downloads the same bytes under the asked-for name', async () => {
    const pdf = minimalPdf();
    const file = await uploadContractFile(accountId, pdf, 'EDF contract.pdf');
    const created = await w.api({
      method: 'POST',
      path: `/accounts/${accountId}/contracts`,
      token: owner,
      body: { ...CONTRACT, supplierId: w.supplierId, file },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'active', file: { name: 'EDF-contract.pdf' } });
    expect(JSON.stringify(created.body)).not.toContain(file.key);
    const list = await w.api({ method: 'GET', path: `/accounts/${accountId}/contracts`, token: owner });
    expect(list.body).toMatchObject({
      total: 1,
      data: [{ name: CONTRACT.name, file: { name: 'EDF-contract.pdf' } }],
    });
    const download = await w.api({
      method: 'GET',
      path: `/accounts/${accountId}/contracts/${created.body._id}/download?name=Temple Quay 2025`,
      token: owner,
    });
    expect(download.body.name).toBe('Temple-Quay-2025.pdf');
    const url = new URL(String(download.body.url));
    expect(url.searchParams.get('response-content-disposition')).toBe(
      'attachment; filename="Temple-Quay-2025.pdf"',
    );
    const got = await fetch(url);
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(pdf);
  });

  it('refuses a file that is not a PDF by its bytes, saying what it is, and an upload of another account', async () => {
    const png = await uploadContractFile(accountId, PNG_BYTES, 'looks-like.pdf');
    const refused = await w.api({
      method: 'POST',
      path: `/accounts/${accountId}/contracts`,
      token: owner,
      body: { ...CONTRACT, file: png },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toEqual({
      file: 'Must be a PDF file: the uploaded file is a PNG image',
    });
    const text = await uploadContractFile(accountId, new TextEncoder().encode('just some text'), 'notes.pdf');
    const plain = await w.api({
      method: 'POST',
      path: `/accounts/${accountId}/contracts`,
      token: owner,
      body: { ...CONTRACT, file: text },
    });
    expect(plain.body.formMessages).toEqual({
      file: 'Must be a PDF file: the uploaded file is not a PDF document',
    });
    const elsewhere = await uploadContractFile(otherAccountId, minimalPdf());
    const borrowed = await w.api({
      method: 'POST',
      path: `/accounts/${accountId}/contracts`,
      token: owner,
      body: { ...CONTRACT, file: elsewhere },
    });
    expect(borrowed.body.formMessages).toEqual({
      file: 'The uploaded file was not found: please upload it again',
    });
  });

  it('changes, toggles, sets rate types and deletes a contract, with field errors for bad dates and rates', async () => {
    const created = await w.api({
      method: 'POST',
      path: `/accounts/${accountId}/contracts`,
      token: owner,
      body: CONTRACT,
    });
    const base = `/accounts/${accountId}/contracts/${created.body._id}`;
    const bad = await w.api({ method: 'PATCH', path: base, token: owner, body: { endDate: '2024-01-01' } });
    expect(bad.body.formMessages).toEqual({ endDate: 'Must be on or after the start date' });
    const renamed = await w.api({ method: 'PATCH', path: base, token: owner, body: { reference: 'C-1042' } });
    expect(renamed.body).toMatchObject({ reference: 'C-1042', file: null });
    const toggled = await w.api({ method: 'PATCH', path: `${base}/toggle-status`, token: owner });
    expect(toggled.body.status).toBe('inactive');
    expect((await w.api({ method: 'PATCH', path: `${base}/toggle-status`, token: owner })).body.status).toBe(
      'active',
    );
    const rates = await w.api({
      method: 'POST',
      path: `${base}/rate-types`,
      token: owner,
      body: {
        rateTypes: [
          { name: 'Day', rate: 24.1, unit: 'p/kWh' },
          { name: 'Standing charge', kind: 'standing', rate: 61, unit: 'p/day' },
        ],
      },
    });
    expect(rates.body.rateTypes).toEqual([
      { name: 'Day', kind: 'unit', rate: 24.1, unit: 'p/kWh' },
      { name: 'Standing charge', kind: 'standing', rate: 61, unit: 'p/day' },
    ]);
    const badRate = await w.api({
      method: 'POST',
      path: `${base}/rate-types`,
      token: owner,
      body: { rateTypes: [{ name: 'Night', rate: -1, unit: 'p/kWh' }] },
    });
    expect(badRate.body.formMessages).toEqual({ 'rateTypes.0.rate': 'Must be 0 or more' });
    const noFile = await w.api({ method: 'GET', path: `${base}/download`, token: owner });
    expect(noFile.status).toBe(404);
    expect((await w.api({ method: 'DELETE', path: base, token: owner })).body.deleted).toBe(true);
    expect((await w.api({ method: 'GET', path: base, token: owner })).status).toBe(404);
  });

  it('clears an optional field sent as null and keeps the rest, but refuses to clear a required one', async () => {
    const created = await w.api({
      method: 'POST',
      path: `/accounts/${accountId}/contracts`,
      token: owner,
      body: {
        ...CONTRACT,
        reference: 'C-2001',
        notes: 'Break clause at 24 months',
        isRenewable: true,
        supplierId: w.supplierId,
        file: await uploadContractFile(accountId, minimalPdf(), 'signed.pdf'),
      },
    });
    const base = `/accounts/${accountId}/contracts/${created.body._id}`;
    const cleared = await w.api({
      method: 'PATCH',
      path: base,
      token: owner,
      body: { name: 'EDF renewed', reference: null, notes: null },
    });
    expect(cleared.status).toBe(200);
    const got = await w.api({ method: 'GET', path: base, token: owner });
    expect(got.body).not.toHaveProperty('reference');
    expect(got.body).not.toHaveProperty('notes');
    expect(got.body).toMatchObject({
      name: 'EDF renewed',
      startDate: CONTRACT.startDate,
      endDate: CONTRACT.endDate,
      isRenewable: true,
      supplierId: w.supplierId,
      file: { name: 'signed.pdf' },
    });

    const replaced = await w.api({
      method: 'PATCH',
      path: base,
      token: owner,
      body: { file: await uploadContractFile(accountId, minimalPdf(), 'countersigned.pdf') },
    });
    expect(replaced.body.file).toMatchObject({ name: 'countersigned.pdf' });
    await w.api({ method: 'PATCH', path: base, token: owner, body: { supplierId: null, file: null } });
    const bare = await w.api({ method: 'GET', path: base, token: owner });
    expect(bare.body).not.toHaveProperty('supplierId');
    expect(bare.body).toMatchObject({ name: 'EDF renewed', file: null });

    for (const body of [
      { name: null, endDate: null },
      { name: '', endDate: null },
    ]) {
      const refused = await w.api({ method: 'PATCH', path: base, token: owner, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.formMessages).toEqual({
        name: 'This field is required',
        endDate: 'This field is required',
      });
    }
    const kept = await w.api({ method: 'GET', path: base, token: owner });
    expect(kept.body).toMatchObject({ name: 'EDF renewed', endDate: CONTRACT.endDate });
  });

  it('pages an account’s contracts and refuses paging that is not a whole number, naming the value', async () => {
    for (const name of ['First', 'Second', 'Third'])
      await w.api({
        method: 'POST',
        path: `/accounts/${otherAccountId}/contracts`,
        token: owner,
        body: { ...CONTRACT, name },
      });
    const list = (query: string) =>
      w.api({ method: 'GET', path: `/accounts/${otherAccountId}/contracts?${query}`, token: owner });
    const page = await list('limit=2&skip=1');
    expect(page.body).toMatchObject({ total: 3, limit: 2, skip: 1 });
    expect(page.body.data).toHaveLength(2);
    expect((await list('$limit=1&$skip=2')).body).toMatchObject({ total: 3, limit: 1, skip: 2 });
    expect((await list('limit=&skip=')).body).toMatchObject({ total: 3, limit: 100, skip: 0 });
    expect((await list('limit=5000')).body.limit).toBe(1000);
    for (const [query, field] of [
      ['limit=ten', 'limit'],
      ['skip=-1', 'skip'],
      ['$limit=1.5', '$limit'],
    ] as const) {
      const refused = await list(query);
      expect(refused.status, query).toBe(400);
      expect(refused.body.message, query).toBe(
        `Invalid query parameter (${field}: Must be a whole number of 0 or more)`,
      );
      expect(refused.body.formMessages, query).toEqual({ [field]: 'Must be a whole number of 0 or more' });
    }
  });

  it('answers 404 to another company for an account’s contracts and their uploads', async () => {
    const outsider = w.token('outsider');
    const upload = await w.api({
      method: 'POST',
      path: `/accounts/${accountId}/contracts/upload`,
      token: outsider,
      body: { fileName: 'a.pdf', size: 1024 },
    });
    expect(upload.status).toBe(404);
    const create = await w.api({
      method: 'POST',
      path: `/accounts/${accountId}/contracts`,
      token: outsider,
      body: CONTRACT,
    });
    expect(create.status).toBe(404);
  });
});

describe('readings', () => {
  it('submits a reading with a photo, lists it, serves the photo and refuses a lower later reading', async () => {
    const photo = await w.api({
      method: 'POST',
      path: '/readings/photo',
      token: owner,
      body: { accountId, fileName: 'meter.jpg', contentType: 'image/jpeg', size: JPEG_BYTES.length },
    });
    expect(await putTo(String(photo.body.uploadUrl), JPEG_BYTES, 'image/jpeg')).toBe(200);
    const first = await w.api({
      method: 'POST',
      path: '/readings/submit',
      token: owner,
      body: { accountId, date: '2025-01-31', value: 10_250, photoKey: photo.body.key },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ unit: 'kWh', hasPhoto: true, isEstimate: false });
    const url = await w.api({ method: 'GET', path: `/readings/${first.body._id}/photo`, token: owner });
    expect(new Uint8Array(await (await fetch(String(url.body.url))).arrayBuffer())).toEqual(JPEG_BYTES);
    // Typed by the photo's name, not by the type its upload declared.
    expect(new URL(String(url.body.url)).searchParams.get('response-content-type')).toBe('image/jpeg');
    const lower = await w.api({
      method: 'POST',
      path: '/readings/submit',
      token: owner,
      body: { accountId, date: '2025-02-28', value: 9_000 },
    });
    expect(lower.body.formMessages).toEqual({
      value: 'Must not be lower than the previous reading (10,250 on 31/01/2025)',
    });
    const second = await w.api({
      method: 'POST',
      path: '/readings/submit',
      token: owner,
      body: { accountId, date: '2025-02-28', value: 11_000 },
    });
    expect(second.body.hasPhoto).toBe(false);
    const list = await w.api({ method: 'GET', path: `/readings?accountId=${accountId}`, token: owner });
    expect(
      (list.body.data as { value: number; hasPhoto: boolean }[]).map((r) => [r.value, r.hasPhoto]),
    ).toEqual([
      [10_250, true],
      [11_000, false],
    ]);
    expect(JSON.stringify(list.body)).not.toContain(String(photo.body.key));
  });

  it('edits a submission with the same checks, patches and deletes readings, and refuses a photo that is not an image', async () => {
    const r = await w.api({
      method: 'POST',
      path: '/readings/submit',
      token: owner,
      body: { accountId: otherAccountId, date: '2025-03-31', value: 500 },
    });
    const id = String(r.body._id);
    await w.api({
      method: 'POST',
      path: '/readings/submit',
      token: owner,
      body: { accountId: otherAccountId, date: '2025-04-30', value: 700 },
    });
    const tooHigh = await w.api({
      method: 'PUT',
      path: `/readings/${id}/edit-submission`,
      token: owner,
      body: { value: 800 },
    });
    expect(tooHigh.body.formMessages).toEqual({
      value: 'Must not be higher than the next reading (700 on 30/04/2025)',
    });
    const future = await w.api({
      method: 'PUT',
      path: `/readings/${id}/edit-submission`,
      token: owner,
      body: { date: '2999-01-01' },
    });
    expect(future.body.formMessages).toMatchObject({ date: 'Must not be in the future' });
    const photo = await w.api({
      method: 'POST',
      path: '/readings/photo',
      token: owner,
      body: {
        accountId: otherAccountId,
        fileName: 'x.png',
        contentType: 'image/png',
        size: minimalPdf().length,
      },
    });
    await putTo(String(photo.body.uploadUrl), minimalPdf(), 'image/png');
    const notImage = await w.api({
      method: 'PUT',
      path: `/readings/${id}/edit-submission`,
      token: owner,
      body: { photoKey: photo.body.key },
    });
    expect(notImage.body.formMessages).toEqual({ photo: 'Must be a JPEG or PNG image' });
    const edited = await w.api({
      method: 'PUT',
      path: `/readings/${id}/edit-submission`,
      token: owner,
      body: { value: 650, comment: 'Re-read' },
    });
    expect(edited.body).toMatchObject({ value: 650, comment: 'Re-read' });
    const patched = await w.api({
      method: 'PATCH',
      path: `/readings/${id}`,
      token: owner,
      body: { isEstimate: true },
    });
    expect(patched.body.isEstimate).toBe(true);
    expect((await w.api({ method: 'GET', path: `/readings/${id}/photo`, token: owner })).status).toBe(404);
    expect((await w.api({ method: 'DELETE', path: `/readings/${id}`, token: owner })).body.deleted).toBe(
      true,
    );
    const left = await w.api({ method: 'GET', path: `/readings?accountId=${otherAccountId}`, token: owner });
    expect(left.body.total).toBe(1);
  });

  it('answers 404 to another company for readings and their accounts', async () => {
    const outsider = w.token('outsider');
    const list = await w.api({ method: 'GET', path: `/readings?accountId=${accountId}`, token: outsider });
    expect(list.body.total).toBe(0);
    const submit = await w.api({
      method: 'POST',
      path: '/readings/submit',
      token: outsider,
      body: { accountId, date: '2025-05-01', value: 1 },
    });
    expect(submit.status).toBe(404);
    const mine = await w.api({ method: 'GET', path: `/readings?accountId=${accountId}`, token: owner });
    const id = (mine.body.data as { _id: string }[])[0]?._id;
    expect((await w.api({ method: 'GET', path: `/readings/${id}/photo`, token: outsider })).status).toBe(404);
  });

  it('clears a comment sent as null on an edit, keeping the rest, but refuses to clear the date or value', async () => {
    const photo = await w.api({
      method: 'POST',
      path: '/readings/photo',
      token: owner,
      body: { accountId, fileName: 'meter.jpg', contentType: 'image/jpeg', size: JPEG_BYTES.length },
    });
    await putTo(String(photo.body.uploadUrl), JPEG_BYTES, 'image/jpeg');
    const submitted = await w.api({
      method: 'POST',
      path: '/readings/submit',
      token: owner,
      body: {
        accountId,
        date: '2025-03-31',
        value: 12_000,
        isEstimate: true,
        comment: 'Read from the bill',
        photoKey: photo.body.key,
      },
    });
    const path = `/readings/${submitted.body._id}`;
    const edited = await w.api({
      method: 'PUT',
      path: `${path}/edit-submission`,
      token: owner,
      body: { value: 12_100, comment: null },
    });
    expect(edited.status).toBe(200);
    const got = await w.api({ method: 'GET', path, token: owner });
    expect(got.body).not.toHaveProperty('comment');
    expect(got.body).toMatchObject({ date: '2025-03-31', value: 12_100, isEstimate: true, hasPhoto: true });

    const refused = await w.api({
      method: 'PUT',
      path: `${path}/edit-submission`,
      token: owner,
      body: { date: null, value: null, comment: 'Too late' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toEqual({
      date: 'This field is required',
      value: 'This field is required',
    });
    const kept = await w.api({ method: 'GET', path, token: owner });
    expect(kept.body).toMatchObject({ date: '2025-03-31', value: 12_100 });
    expect(kept.body).not.toHaveProperty('comment');

    await w.api({ method: 'PUT', path: `${path}/edit-submission`, token: owner, body: { photoKey: null } });
    const noPhoto = await w.api({ method: 'GET', path, token: owner });
    expect(noPhoto.body).toMatchObject({ hasPhoto: false, value: 12_100 });
  });
});
