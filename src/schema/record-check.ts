import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ClaimGateReport, CostSummary, EvaluationCriteria, IdeaFile, ReproducibilityReport, ReviewScore, RunMeta } from './checkpoint.ts';

const SCHEMAS = { ClaimGateReport, CostSummary, EvaluationCriteria, IdeaFile, ReproducibilityReport, ReviewScore, RunMeta };

/**
 * The source of TypeBox's compiled check of one checkpoint record schema. Imported as a macro, it
 * runs when svc is built (or its source is loaded), so a reader of these records checks them with
 * neither the compiler nor TypeBox's value module loaded: `svc status` stays small.
 */
export function recordCheckCode(name: keyof typeof SCHEMAS): string {
  return TypeCompiler.Code(SCHEMAS[name], [], { language: 'javascript' });
}
