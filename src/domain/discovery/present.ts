import { presentTaskSummary, type TaskSummary } from '../catalog/present.js';
import type { Ranked } from './engine.js';

export type Candidate = TaskSummary & { score: number; matched: string[]; ready?: boolean };
export type NearMiss = TaskSummary & { score: number; matched: string[]; missed: string[] };

// The summary is added to, not spread into a new object: a spread followed by further properties costs V8 about
// 4 µs an object (Node 20), 30 times what adding them does, and an answer holds up to 50.

/** A qualifying task: its summary, score, the job's words it matched and, given a principal, `ready`. */
export function presentCandidate({ task, score, matched }: Ranked, ready: boolean | undefined): Candidate {
  const candidate: Candidate = Object.assign(presentTaskSummary(task), { score, matched });
  if (ready !== undefined) candidate.ready = ready;
  return candidate;
}

/** A close task that did not qualify, with the job's words it matched and missed. */
export function presentNearMiss({ task, score, matched, missed }: Ranked): NearMiss {
  return Object.assign(presentTaskSummary(task), { score, matched, missed });
}
