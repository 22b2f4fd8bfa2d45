/** Messages of the discussion pages and their calls; the first two are worded as 02 §8 gives them. */
export const DISCUSSION_MESSAGES = {
  replyProblem: 'There was a problem adding, updating or deleting a reply.',
  assignProblem: 'There was a problem assigning a user.',
  submitProblem: 'There was a problem with submitting.',
  unknownCategory: 'Choose one of the message categories',
  notOnSite: 'Choose a meter of this site',
  billNotOnSite: 'Choose a bill of this site',
  notAMember: 'Choose someone who may read this site',
  notYours: 'Only its author may change a reply',
  attachmentMissing: 'The file has not been uploaded',
  attachmentType: 'Attach a PDF, PNG, JPEG or TIFF file',
  attachmentUnknown: 'Attach a file uploaded to this discussion',
  resolved: 'This discussion is resolved: reopen it to reply',
} as const;
