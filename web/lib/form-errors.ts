import { MESSAGES } from '../../shared/messages.ts';
import { ApiError } from './api-client.ts';

/** What a failed submit shows: one message per field from the server's formMessages, or one for the form. */
export interface FormFailure {
  fields: Record<string, string>;
  message?: string;
}

export const NO_FAILURE: FormFailure = { fields: {} };

/**
 * The server's formMessages beside their fields (02 §5). A form error whose fields this form does not show
 * (or any other failure) becomes one message above the form: the server's own words below 500, otherwise
 * the generic 'There was a problem with submitting.'
 */
export function formFailureOf(error: unknown, shownFields?: readonly string[]): FormFailure {
  if (error instanceof ApiError && error.formMessages) {
    const fields = error.formMessages;
    const unshown = shownFields ? Object.keys(fields).filter((k) => !shownFields.includes(k)) : [];
    return {
      fields,
      ...(unshown.length > 0 ? { message: unshown.map((k) => fields[k]).join(' ') } : {}),
    };
  }
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    return { fields: {}, message: error.message };
  }
  return { fields: {}, message: MESSAGES.submitProblem };
}

/** Required fields left empty, checked before anything is sent: 'This field is required' beside each. */
export function requiredFields(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      out[field] = MESSAGES.fieldRequired;
    }
  }
  return out;
}

export function withoutField(failure: FormFailure, field: string): FormFailure {
  const { [field]: _gone, ...fields } = failure.fields;
  return { ...failure, fields };
}
