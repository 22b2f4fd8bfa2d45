import * as z from 'zod';
import { idField } from '../../shared/schemas/fields.ts';
import { userSchema } from '../../shared/schemas/user.ts';

/** What creating and changing a company user take; loaded with the first write of a user. */
export const companyUserBodies = {
  create: userSchema.extend({ sendWelcomeEmail: z.boolean().default(false) }),
  /** `roleId: null` takes the user's role away; leaving it out keeps the role. */
  update: userSchema.omit({ email: true }).extend({ roleId: idField().nullable() }).partial().strict(),
};
