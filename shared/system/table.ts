/**
 * The single DynamoDB table: its keys and generic indexes. The CDK app and the local stack both create
 * it from this, so the two cannot differ.
 */
export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    // A collection's live items in its declared order (ResourceDecl.orderBy): a page of sites by name.
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;
