import { HeadObjectCommand, NotFound } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SpyMessage } from 'fauxqs';
import { SUBSCRIPTIONS } from '../../shared/system/pipeline.ts';
import { localBucketName, localQueueUrl } from './environment.ts';
import type { MessagingEmulator } from './messaging.ts';
import type { Log } from './options.ts';
import { nextSequencer, objectCreatedEvent } from './s3-notification.ts';

export interface ObjectCreatedRouting {
  /** Resolves once every notification for objects stored so far has been sent. */
  idle(): Promise<void>;
  pending(): number;
  stop(): void;
}

/**
 * S3 event notifications as AWS sends them: an object stored under a subscribed bucket and prefix puts an
 * `ObjectCreated` event on the subscribed queue. fauxqs has no notification configuration, so the store's
 * upload events (its message spy) drive this.
 */
export function routeObjectCreated(messaging: MessagingEmulator, log: Log): ObjectCreatedRouting {
  const targets = SUBSCRIPTIONS.map((s) => ({
    bucket: localBucketName(s.bucket),
    prefix: s.prefix,
    queueUrl: localQueueUrl(messaging.endpoint, s.queue),
    configurationId: `${s.bucket}-${s.prefix.replace(/\W+/g, '-')}to-${s.queue}`.replace(/-+/g, '-'),
  }));
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const deliver = async (bucket: string, key: string, time: Date) => {
    const matching = targets.filter((t) => t.bucket === bucket && key.startsWith(t.prefix));
    if (matching.length === 0) return;
    const sequencer = nextSequencer(time.getTime());
    let head: { ContentLength?: number; ETag?: string };
    try {
      head = await messaging.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    } catch (err) {
      if (err instanceof NotFound) return;
      throw err;
    }
    for (const target of matching) {
      const event = objectCreatedEvent({
        bucket,
        key,
        size: head.ContentLength ?? 0,
        eTag: head.ETag ?? '',
        configurationId: target.configurationId,
        sequencer,
        time,
      });
      // Only failures are logged: a first start stores a picture per demo site, and a line for each event
      // buried the start-up banner.
      await messaging.sqs.send(
        new SendMessageCommand({ QueueUrl: target.queueUrl, MessageBody: JSON.stringify(event) }),
      );
    }
  };

  const onEvent = (m: SpyMessage) => {
    if (stopped || m.service !== 's3' || m.status !== 'uploaded') return;
    const work = deliver(m.bucket, m.key, new Date(m.timestamp)).catch((err: unknown) =>
      log('s3 event not sent', { bucket: m.bucket, key: m.key, error: String(err) }),
    );
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  // The spy offers no subscription, but it calls each waiter's matcher for every new event, synchronously
  // while the object is stored. A matcher that never matches is therefore a listener. Events already in
  // the buffer when listening starts are skipped.
  let listening = false;
  const listen = () => {
    listening = false;
    messaging.server.spy
      .waitForMessage((m) => {
        if (listening) onEvent(m);
        return false;
      })
      .catch(() => {
        if (!stopped) listen();
      });
    listening = true;
  };
  listen();

  return {
    idle: async () => {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    pending: () => inFlight.size,
    stop: () => {
      stopped = true;
    },
  };
}
