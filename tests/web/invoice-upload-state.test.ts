import { describe, expect, it } from 'vitest';
import {
  applyPoll,
  captureContentType,
  isPolled,
  isWatched,
  needsPolling,
  newEntries,
  type PolledInvoice,
  refusalOf,
  statusFromServer,
  summarise,
  type UploadEntry,
  withInvoiceId,
  withProgress,
  withUploadError,
  withUploaded,
} from '../../web/features/invoices/upload-state.ts';

/** Two files picked, both registered with the API and sent whole. */
function uploadedPair(): UploadEntry[] {
  let entries = newEntries([
    { name: 'march.pdf', size: 1000 },
    { name: 'april.pdf', size: 2000 },
  ]);
  entries = withInvoiceId(entries, 'file-0', 'a'.repeat(24));
  entries = withInvoiceId(entries, 'file-1', 'b'.repeat(24));
  entries = withProgress(entries, 'file-0', 100);
  entries = withProgress(entries, 'file-1', 100);
  entries = withUploaded(entries, 'file-0');
  return withUploaded(entries, 'file-1');
}

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);

describe('an upload in the browser', () => {
  it('goes uploading → uploaded once the store took the file → queued once the server says so', () => {
    let entries = withInvoiceId(newEntries([{ name: 'bill.pdf', size: 10 }]), 'file-0', A);
    expect(entries[0]).toMatchObject({ status: 'uploading', progress: 0 });
    entries = withProgress(entries, 'file-0', 42.4);
    expect(entries[0]).toMatchObject({ status: 'uploading', progress: 42 });
    // Every byte sent, but the store has not answered the PUT yet: still uploading, not yet polled.
    entries = withProgress(entries, 'file-0', 100);
    expect(entries[0]).toMatchObject({ status: 'uploading', progress: 100 });
    expect(isPolled(entries[0] as UploadEntry)).toBe(false);
    entries = withUploaded(entries, 'file-0');
    expect(entries[0]).toMatchObject({ status: 'uploaded', progress: 100 });
    expect(isPolled(entries[0] as UploadEntry)).toBe(true);
    // The server has not seen the object arrive yet: its record still says uploading.
    expect(applyPoll(entries, [{ _id: A, status: 'uploading' }])[0]?.status).toBe('uploaded');
    // A record missing from the answer counts as queued (02 §4).
    expect(applyPoll(entries, [])[0]?.status).toBe('queued');
    entries = applyPoll(entries, [{ _id: A, status: 'queued' }]);
    expect(entries[0]?.status).toBe('queued');
    entries = applyPoll(entries, [{ _id: A, status: 'processing' }]);
    expect(entries[0]?.status).toBe('processing');
    entries = applyPoll(entries, [{ _id: A, status: 'captured' }]);
    expect(entries[0]?.status).toBe('captured');
  });

  it('does not go back to uploaded when a poll answered before the PUT did', () => {
    let entries = withProgress(
      withInvoiceId(newEntries([{ name: 'bill.pdf', size: 10 }]), 'file-0', A),
      'file-0',
      100,
    );
    entries = withUploaded(
      applyPoll(withUploaded(entries, 'file-0'), [{ _id: A, status: 'processing' }]),
      'file-0',
    );
    expect(entries[0]?.status).toBe('processing');
  });

  it('numbers files on from those already on the page', () => {
    expect(newEntries([{ name: 'x.pdf', size: 1 }], 3).map((e) => e.key)).toEqual(['file-3']);
  });

  it('refuses empty, oversized and unsupported files before sending anything', () => {
    expect(refusalOf({ name: 'a.pdf', type: 'application/pdf', size: 0 })).toBe('The file is empty');
    expect(refusalOf({ name: 'a.pdf', type: 'application/pdf', size: 20 * 1024 * 1024 + 1 })).toBe(
      'The file is larger than 20 MB',
    );
    expect(refusalOf({ name: 'a.docx', type: 'application/msword', size: 10 })).toMatch(/Only PDF/);
    expect(refusalOf({ name: 'a.pdf', type: 'application/pdf', size: 20 * 1024 * 1024 })).toBeUndefined();
  });

  it('names the content type from the file name when the browser gives none, or an odd one', () => {
    expect(captureContentType({ name: 'Scan.TIF', type: '' })).toBe('image/tiff');
    expect(captureContentType({ name: 'bill.pdf', type: '' })).toBe('application/pdf');
    expect(captureContentType({ name: 'photo.jpg', type: 'image/jpeg' })).toBe('image/jpeg');
    expect(captureContentType({ name: 'bill.pdf', type: 'application/x-pdf' })).toBe('application/pdf');
    expect(captureContentType({ name: 'notes.txt', type: 'text/plain' })).toBe('text/plain');
  });
});

describe('polling', () => {
  it('polls only files that finished uploading and have not settled', () => {
    let entries = newEntries([
      { name: 'a.pdf', size: 1 },
      { name: 'b.pdf', size: 1 },
    ]);
    entries = withInvoiceId(entries, 'file-0', A);
    expect(needsPolling(entries)).toBe(false); // registered but still sending
    entries = withProgress(entries, 'file-0', 100);
    expect(needsPolling(entries)).toBe(false); // all sent, the store has not answered yet
    entries = withUploaded(entries, 'file-0');
    expect(entries.map(isPolled)).toEqual([true, false]);
    entries = withUploadError(entries, 'file-1', 'There was a problem uploading the invoice.');
    expect(entries.map(isPolled)).toEqual([true, false]);
  });

  it('counts a missing server record as queued, and one still marked uploading after the upload too', () => {
    expect(statusFromServer(undefined)).toBe('queued');
    expect(statusFromServer({ _id: A, status: 'uploading' })).toBe('queued');
    expect(statusFromServer({ _id: A, status: 'processing' })).toBe('processing');
    // An uploaded entry whose record still says uploading keeps showing uploaded; the other moves on.
    const polled = applyPoll(uploadedPair(), [
      { _id: A, status: 'uploading' },
      { _id: B, status: 'pending' },
    ]);
    expect(polled.map((e) => e.status)).toEqual(['uploaded', 'pending']);
    // One whose record is missing from the answer counts as queued.
    expect(applyPoll(uploadedPair(), [{ _id: B, status: 'pending' }]).map((e) => e.status)).toEqual([
      'queued',
      'pending',
    ]);
    // An entry past uploaded whose record went missing from an answer counts it as queued.
    const queuedFirst = applyPoll(uploadedPair(), [
      { _id: A, status: 'queued' },
      { _id: B, status: 'queued' },
    ]);
    expect(applyPoll(queuedFirst, [{ _id: B, status: 'queued' }]).map((e) => e.status)).toEqual([
      'queued',
      'queued',
    ]);
  });

  it('never moves an entry back when an older answer arrives after a newer one', () => {
    const processing = applyPoll(uploadedPair(), [
      { _id: A, status: 'processing' },
      { _id: B, status: 'queued' },
    ]);
    const stale = applyPoll(processing, [
      { _id: A, status: 'queued' },
      { _id: B, status: 'uploading' },
    ]);
    expect(stale.map((e) => e.status)).toEqual(['processing', 'queued']);
  });

  it('moves an item to captured, error or manual and then leaves it out of polling', () => {
    const first = applyPoll(uploadedPair(), [
      { _id: A, status: 'captured', invoiceNumber: 'INV-1' },
      { _id: B, status: 'processing' },
    ]);
    expect(first.map((e) => e.status)).toEqual(['captured', 'processing']);
    expect(first[0]?.invoiceNumber).toBe('INV-1');
    expect(first.map(isPolled)).toEqual([false, true]);

    // A later answer no longer changes the settled one's capture status.
    const second = applyPoll(first, [
      { _id: A, status: 'completed' },
      { _id: B, status: 'manual' },
    ]);
    expect(second.map((e) => e.status)).toEqual(['captured', 'manual']);
    // Both still wait for the bill checks' outcome.
    expect(needsPolling(second)).toBe(true);
    const judged = applyPoll(second, [
      { _id: A, status: 'captured', validationStatus: 'failed' },
      { _id: B, status: 'manual', validationStatus: 'passed' },
    ]);
    expect(judged.map((e) => e.validationStatus)).toEqual(['failed', 'passed']);
    expect(needsPolling(judged)).toBe(false);
  });

  it('watches a captured bill until validation has judged it, and counts it as being checked', () => {
    const captured = applyPoll(uploadedPair(), [
      { _id: A, status: 'captured', validationStatus: 'pending' },
      { _id: B, status: 'captured' },
    ]);
    expect(captured.map(isPolled)).toEqual([false, false]);
    expect(captured.map(isWatched)).toEqual([true, true]);
    expect(summarise(captured).validating).toHaveLength(2);
    const failed = applyPoll(captured, [{ _id: A, status: 'captured', validationStatus: 'failed' }]);
    expect(failed[0]?.validationStatus).toBe('failed');
    expect(summarise(failed).validating.map((e) => e.invoiceId)).toEqual([B]);
  });

  it('lists the further invoices of a document that held several, once it is captured', () => {
    const C = 'c'.repeat(24);
    const invoices: PolledInvoice[] = [
      { _id: A, status: 'captured', sisterId: C, fileName: 'march.pdf (1 of 2)' },
      { _id: C, status: 'manual', sisterId: A, fileName: 'march.pdf (2 of 2)' },
      { _id: B, status: 'processing' },
    ];
    const polled = applyPoll(uploadedPair(), invoices);
    expect(polled.map((e) => [e.fileName, e.status, e.parentKey])).toEqual([
      ['march.pdf', 'captured', undefined],
      ['march.pdf (2 of 2)', 'manual', 'file-0'],
      ['april.pdf', 'processing', undefined],
    ]);
    // Seen once, listed once.
    expect(applyPoll(polled, invoices)).toHaveLength(3);
  });
});

describe('what the uploads came to', () => {
  it('counts captured, manual and error results as new invoices for validation', () => {
    const entries = applyPoll(uploadedPair(), [
      { _id: A, status: 'manual' },
      { _id: B, status: 'error', error: { type: 'capture', message: 'No text could be read.' } },
    ]);
    const summary = summarise(entries);
    expect(summary.forValidation.map((e) => e.fileName)).toEqual(['march.pdf', 'april.pdf']);
    expect(summary.errored).toEqual([]);
    expect(summary.inProgress).toEqual([]);
  });

  it('lists an error of another type than capture apart', () => {
    const entries = applyPoll(uploadedPair(), [
      { _id: A, status: 'error', error: { type: 'duplicate', message: 'Already uploaded as x.pdf' } },
      { _id: B, status: 'captured' },
    ]);
    const summary = summarise(entries);
    expect(summary.errored.map((e) => e.error?.message)).toEqual(['Already uploaded as x.pdf']);
    expect(summary.forValidation).toHaveLength(2);
  });

  it('lists a file that never reached the store as errored, and not for validation', () => {
    const entries = withUploadError(
      newEntries([{ name: 'big.pdf', size: 1 }]),
      'file-0',
      'The file is larger than 20 MB',
    );
    const summary = summarise(entries);
    expect(summary.errored.map((e) => e.error)).toEqual([
      { type: 'upload', message: 'The file is larger than 20 MB' },
    ]);
    expect(summary.forValidation).toEqual([]);
  });
});
