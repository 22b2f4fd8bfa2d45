/** The invoice area's messages, worded as the specification gives them (02 §8). */
export const INVOICE_MESSAGES = {
  uploadProblem: 'There was a problem uploading the invoice.',
  ratesProblem: 'There was a problem updating invoice rates.',
  confirmProblem: 'There was a problem confirming invoice values.',
  getProblem: 'There was a problem getting invoices.',
  updateProblem: 'There was a problem updating invoices.',
  deleteProblem: 'There was a problem deleting invoices.',
  revalidateProblem: 'There was a problem re-validating the invoice.',
  assignProblem: 'There was a problem assigning a user.',
} as const;
