import { type Document, isMap, isNode, isSeq, type YAMLMap } from 'yaml';
import type { Workflow } from '../../schema/workflow.ts';
import { InputError, NotFoundError } from '../errors.ts';
import { ownKey } from './workflow-edit.ts';
import { bundledWorkflow } from './workflow.ts';

/** Where a switched-off skill keeps the phase it had, for switching it back on. */
export const PHASE_WHEN_ENABLED = 'phase_when_enabled';
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Switch a skill off (`phase: none`, the schema's way) or back on: its phase before switching off,
 * else the bundled default's phase for that skill.
 */
export function setSkillEnabled(doc: Document, wf: Workflow, name: string, enabled: boolean): void {
  const entry = skillEntry(doc, wf, name);
  const phase = entry.get('phase', true);
  const off = [toJs(phase)].flat().includes('none');
  if (off === !enabled) return;
  if (!enabled) {
    // a new node: setting a scalar value in place would change the kept phase too
    entry.set(PHASE_WHEN_ENABLED, doc.createNode(toJs(phase), { flow: true }));
    entry.set('phase', 'none');
    return;
  }
  const kept = entry.get(PHASE_WHEN_ENABLED, true);
  const restored = kept ?? bundledWorkflow().skills.find((s) => s.name === name)?.phase;
  if (restored === undefined) throw new InputError(`skill '${name}' has no phase to return to`, 'set its phase in the workflow YAML');
  entry.set('phase', isNode(restored) ? restored : doc.createNode(restored, { flow: true }));
  entry.delete(PHASE_WHEN_ENABLED);
}

/**
 * Replace the tools switched off in one skill. They are kept in the top-level `disabled_tools`
 * list as `<skill>:<tool>`; other entries, bare tool names (off in every skill) included, stay.
 */
export function setDisabledTools(doc: Document, wf: Workflow, skill: string, tools: string[]): void {
  skillEntry(doc, wf, skill);
  for (const t of tools) {
    if (!TOOL_NAME.test(t)) throw new InputError(`'${t.slice(0, 80)}' is not a tool name`, 'use letters, digits, _, . and -');
  }
  ownKey(doc, 'disabled_tools');
  const current = [toJs(doc.get('disabled_tools', true)) ?? []].flat().map(String);
  const others = current.filter((e) => !e.startsWith(`${skill}:`));
  const mine = [...new Set(tools)].map((t) => `${skill}:${t}`);
  doc.set('disabled_tools', doc.createNode([...others, ...mine]));
}

/**
 * Replace the whole `disabled_tools` list (the ARI web UI sends it whole): bare tool names (off
 * in every skill) and `<skill>:<tool>` entries of known skills.
 */
export function replaceDisabledTools(doc: Document, wf: Workflow, entries: string[]): void {
  for (const e of entries) {
    const [skill, tool] = e.includes(':') ? (e.split(':', 2) as [string, string]) : [null, e];
    if (!TOOL_NAME.test(tool)) throw new InputError(`'${e.slice(0, 80)}' is not a tool name`, 'use letters, digits, _, . and -, as tool or skill:tool');
    if (skill !== null && !wf.skills.some((s) => s.name === skill)) throw new NotFoundError(`unknown skill '${skill.slice(0, 80)}' in '${e.slice(0, 80)}'`, 'see the skills of GET /api/workflow');
  }
  doc.set('disabled_tools', doc.createNode([...new Set(entries)]));
}

/** Set the phase of each named skill (`none` switches it off), as the ARI web UI's skills list gives them; others stay. */
export function setSkillPhases(doc: Document, wf: Workflow, skills: { name: string; phase: string | string[] }[]): void {
  const entries = skills.map((s) => [skillEntry(doc, wf, s.name), s] as const);
  for (const [entry, s] of entries) {
    entry.set('phase', doc.createNode(s.phase, { flow: true }));
    entry.delete(PHASE_WHEN_ENABLED);
  }
}

function skillEntry(doc: Document, wf: Workflow, name: string): YAMLMap {
  const index = wf.skills.findIndex((s) => s.name === name);
  if (index < 0) throw new NotFoundError(`unknown skill '${name.slice(0, 80)}'`, 'see the skills of GET /api/workflow');
  ownKey(doc, 'skills');
  const seq = doc.get('skills', true);
  const entry = isSeq(seq) ? seq.items[index] : undefined;
  if (!isMap(entry)) throw new InputError(`skills[${index}] is not a skill entry`);
  return entry;
}

function toJs(node: unknown): unknown {
  return node !== null && typeof node === 'object' && 'toJSON' in node ? (node as { toJSON(): unknown }).toJSON() : node;
}
