import { MESSAGES } from '../../shared/messages.ts';
import { ApiError } from './api-client.ts';

export interface FormFailure {
  /** Messages beside their fields, from the API's formMessages. */
  fields: Record<string, string>;
  /** A message for the whole form, when no field explains the failure. */
  message?: string;
}

/** What a failed submit shows: the server's field messages, else the client's message for the action. */
export function formFailureOf(error: unknown, fallback: string = MESSAGES.submitProblem): FormFailure {
  if (error instanceof ApiError && error.formMessages && Object.keys(error.formMessages).length > 0) {
    const { _form: form, ...fields } = error.formMessages;
    return { fields, ...(form ? { message: form } : {}) };
  }
  if (error instanceof ApiError && error.status === 403) return { fields: {}, message: error.message };
  return { fields: {}, message: fallback };
}
