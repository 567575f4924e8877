import { presentTaskSummary, type TaskSummary } from '../catalog/present.js';
import type { Ranked } from './engine.js';

export type Candidate = TaskSummary & { score: number; matched: string[]; ready?: boolean };
export type NearMiss = TaskSummary & { score: number; matched: string[]; missed: string[] };

/** A qualifying task: its summary, score, the job's words it matched and, given a principal, `ready`. */
export function presentCandidate({ task, score, matched }: Ranked, ready: boolean | undefined): Candidate {
  return { ...presentTaskSummary(task), score, matched, ...(ready === undefined ? {} : { ready }) };
}

/** A close task that did not qualify, with the job's words it matched and missed. */
export function presentNearMiss({ task, score, matched, missed }: Ranked): NearMiss {
  return { ...presentTaskSummary(task), score, matched, missed };
}
