import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { vi } from 'vitest';

export interface CommandSpy {
  /** The class names of the commands sent since the spy started (until restored), e.g. QueryCommand. */
  names(): string[];
  restore(): void;
}

/**
 * Watches every command the functions send to DynamoDB while the handlers run in this process: both
 * the document client the repositories use and a raw client, should any code make one.
 */
export function spyOnDynamoCommands(): CommandSpy {
  const spies = [
    vi.spyOn(DynamoDBDocumentClient.prototype, 'send'),
    vi.spyOn(DynamoDBClient.prototype, 'send'),
  ];
  const sent = () =>
    spies.flatMap((s) =>
      s.mock.calls.map((call) => (call[0] as { constructor: { name: string } }).constructor.name),
    );
  let kept: string[] | undefined;
  return {
    names: () => kept ?? sent(),
    restore: () => {
      // Restoring clears the recorded calls: keep their names for the assertions that follow.
      kept = sent();
      for (const s of spies) s.mockRestore();
    },
  };
}
