/**
 * | pattern | key condition | index |
 * |---|---|---|
 * | the factor set a company's figures are in | `pk = C#{companyId}#factor-set`, `sk = current` | table |
 * | record a restatement's factor set | `pk = C#{companyId}#factor-set`, `sk = current` | table |
 */
import { getRaw, putRaw } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';

/** The last restatement of a company's emissions: the edition its figures are in since, who, when. */
export interface FactorSetState {
  factorSet: string;
  restatedAt: string;
  restatedBy: string;
}

const CURRENT = 'current';
const pkOf = (companyId: string) => keys.collection({ companyId }, 'factor-set');

export async function getFactorSetState(companyId: string): Promise<FactorSetState | undefined> {
  const raw = await getRaw(pkOf(companyId), CURRENT);
  if (!raw || typeof raw.factorSet !== 'string') return undefined;
  return {
    factorSet: raw.factorSet,
    restatedAt: String(raw.restatedAt ?? ''),
    restatedBy: String(raw.restatedBy ?? ''),
  };
}

export async function putFactorSetState(companyId: string, state: FactorSetState): Promise<void> {
  await putRaw({ pk: pkOf(companyId), sk: CURRENT, _id: CURRENT, companyId, ...state });
}
