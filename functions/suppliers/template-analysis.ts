import { previewTemplate, type TemplatePreview } from '../../shared/capture/extract.ts';
import type { Template } from '../../shared/capture/model.ts';
import type { TextractOutput } from '../../shared/capture/textract.ts';
import { analyseDocument } from '../core/adapters/textract.ts';

/**
 * The two parts of capture a template preview runs: Textract's reading of the sample, and the
 * template's extraction from that reading (only the template reads: the generic extractor fills nothing,
 * so the editor shows the template as it is).
 */

/** An analysis not finished by then has failed; a sample is a few pages, read in well under a minute. */
const ANALYSIS_TIMEOUT_MS = 120_000;

export function analyseSample(bucket: string, key: string): Promise<TextractOutput> {
  return analyseDocument(bucket, key, { timeoutMs: ANALYSIS_TIMEOUT_MS });
}

export function previewResults(output: TextractOutput, template: Template): TemplatePreview {
  return previewTemplate(output, template);
}
