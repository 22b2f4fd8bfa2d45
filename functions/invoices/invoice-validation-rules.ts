/**
 * The configurable bill validation rules live with the checks in shared/validation, where the
 * validation worker and the web read them too; the company admin service takes them from here.
 */
export {
  applyRuleChanges,
  DEFAULT_VALIDATION_RULES,
  type RuleChange,
  ruleChangesSchema,
  type ValidationRule,
} from '../../shared/validation/rules.ts';
