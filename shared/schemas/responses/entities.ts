import type * as z from 'zod';
import type { addressSchema } from '../address.ts';

/** Answers of the entity calls (`/entities…`), as the browser reads them. */

/** An entity as the API stores it (GET /entities/{id}, GET /entities/{id}/ultimate-parent). */
export interface Entity {
  _id: string;
  legalName: string;
  companyNumber?: string;
  parentEntityId?: string | null;
  address?: z.output<typeof addressSchema>;
}

/** An item of GET /entities/search: the entity with its parent's name. */
export interface EntitySearchHit extends Entity {
  parentEntity: { _id: string; legalName: string } | null;
}

/** An item of GET /entities, as pickers use it. */
export type EntityOption = Pick<Entity, '_id' | 'legalName'>;
