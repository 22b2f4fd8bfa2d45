import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../functions/core/lib/logger.ts';
import { parseQueueMessage, queueFunction } from '../../../functions/core/middleware/queue-function.ts';
import { QUEUE_DECLS, SCHEDULES } from '../../../shared/system/pipeline.ts';
import { QUEUE_MESSAGES } from '../../../shared/system/queue-messages.ts';

const s3Event = (key: string) =>
  JSON.stringify({
    Records: [
      { eventName: 'ObjectCreated:Put', s3: { bucket: { name: 'uploads' }, object: { key, size: 3 } } },
    ],
  });

const sqsEvent = (...bodies: string[]): SQSEvent =>
  ({
    Records: bodies.map((body, i) => ({ messageId: `m${i}`, body, attributes: {} })),
  }) as unknown as SQSEvent;

describe('queue message schemas', () => {
  it('cover every declared queue, and the schedules send messages their queue reads', () => {
    expect(Object.keys(QUEUE_MESSAGES).sort()).toEqual(QUEUE_DECLS.map((q) => q.name).sort());
    for (const s of SCHEDULES) {
      expect(parseQueueMessage(s.queue, JSON.stringify(s.message)).ok, s.name).toBe(true);
    }
  });

  it('read what each queue is sent, and refuse what names nothing', () => {
    expect(parseQueueMessage('validation', '{"companyId":"c1","invoiceId":"i1"}')).toEqual({
      ok: true,
      message: { companyId: 'c1', invoiceId: 'i1' },
    });
    expect(parseQueueMessage('validation', '{"companyId":"c1"}')).toMatchObject({ ok: false });
    expect(parseQueueMessage('validation', '{"companyId":"c1","invoiceId":7}')).toMatchObject({ ok: false });
    expect(parseQueueMessage('validation', 'not json')).toEqual({ ok: false, reason: 'not JSON' });
    expect(parseQueueMessage('capture', '{"companyId":"c1","captureId":"k1"}').ok).toBe(true);
    expect(parseQueueMessage('capture', s3Event('invoices/c1/k1/a.pdf')).ok).toBe(true);
    expect(parseQueueMessage('capture', '{"companyId":"c1"}').ok).toBe(false);
    const receipt = {
      notificationType: 'Received',
      mail: { source: 'billing@supplier.example' },
      receipt: {
        recipients: ['invoices@capture.example'],
        action: { type: 'S3', bucketName: 'inbox', objectKey: 'mail/a.eml' },
      },
    };
    expect(parseQueueMessage('email-intake', JSON.stringify(receipt)).ok).toBe(true);
    // Mail is routed by its receipt's envelope recipients: an S3 event of the stored mail names none.
    expect(parseQueueMessage('email-intake', s3Event('mail/a.eml')).ok).toBe(false);
    expect(
      parseQueueMessage(
        'email-intake',
        JSON.stringify({ ...receipt, receipt: { action: receipt.receipt.action } }),
      ).ok,
    ).toBe(false);
    expect(parseQueueMessage('missing-bills', '{"check":"something-else"}').ok).toBe(false);
  });
});

describe('queue functions', () => {
  it('hand parsed messages on, and report a failed message or a body that is none for retry and the dead-letter queue', async () => {
    const lines: string[] = [];
    const seen: string[] = [];
    const handler = queueFunction(
      'validation',
      createLogger({}, 'info', (l) => lines.push(l)),
      'validation failed',
      async (message) => {
        if (message.invoiceId === 'boom') throw new Error('database unavailable');
        seen.push(message.invoiceId);
      },
    );
    const result = await handler(
      sqsEvent(
        '{"companyId":"c","invoiceId":"a"}',
        '{"companyId":"c"}',
        '{"companyId":"c","invoiceId":"boom"}',
        '{oops',
      ),
    );
    expect(seen).toEqual(['a']);
    // Unreadable bodies end in the dead-letter queue beside the failed one, where they can be read.
    expect(result).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }],
    });
    const refused = lines.filter((l) => l.includes('not a validation message'));
    expect(refused).toHaveLength(2);
    expect(refused[0]).toContain('invoiceId');
  });
});
