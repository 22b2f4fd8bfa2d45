/**
 * The messages of an account's contracts and readings, apart from their schemas (zod's full build), so that
 * the checks a function runs at start or on every call can name them without loading those schemas.
 */

export const CONTRACT_MESSAGES = {
  notPdf: 'Must be a PDF file',
  uploadMissing: 'The uploaded file was not found: please upload it again',
  endBeforeStart: 'Must be on or after the start date',
  noFile: 'This contract has no file',
  /** Client messages (02 §8): a failed add or update, a failed toggle, failed rates. */
  submitProblem: 'There was a problem with submitting.',
  statusProblem: 'There was a problem updating the status.',
  rateTypeProblem: 'There was a problem setting contract rate type.',
} as const;

export const READING_PHOTO_TYPES = ['image/jpeg', 'image/png'] as const;

export const READING_MESSAGES = {
  photoType: 'Must be a JPEG or PNG image',
  photoMissing: 'The photo was not found: please upload it again',
  future: 'Must not be in the future',
  noPhoto: 'This reading has no photo',
} as const;
