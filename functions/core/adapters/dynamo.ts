import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { consumedCapacityMeasured, measureReadCapacity } from './consumed-capacity.ts';

let client: DynamoDBDocumentClient | undefined;

/** One client per process; the endpoint comes from AWS_ENDPOINT_URL_DYNAMODB where set (local stack, LocalStack). */
export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    const base = new DynamoDBClient({ region: config().region });
    // The SDK's logger step copies every response through its sensitive-data filter for a logger that
    // writes nothing: a sixth of a request's CPU on a list. Errors still reach our own logs as thrown.
    base.middlewareStack.remove('loggerMiddleware');
    if (consumedCapacityMeasured) measureReadCapacity(base);
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return client;
}
