import type { Task } from '../catalog/types.js';
import type { Ranked } from './engine.js';

function taskSummary(task: Task) {
  return {
    id: task.id,
    provider: task.provider,
    capability: task.capability,
    kind: task.kind,
    title: task.title,
    description: task.description,
    price_usd: task.price_usd,
  };
}

export type Candidate = ReturnType<typeof taskSummary> & { score: number; matched: string[]; ready?: boolean };
export type NearMiss = ReturnType<typeof taskSummary> & { score: number; matched: string[]; missed: string[] };

/** A qualifying task: its summary, score, the job's words it matched and, given a principal, `ready`. */
export function presentCandidate({ task, score, matched }: Ranked, ready: boolean | undefined): Candidate {
  return { ...taskSummary(task), score, matched, ...(ready === undefined ? {} : { ready }) };
}

/** A close task that did not qualify, with the job's words it matched and missed. */
export function presentNearMiss({ task, score, matched, missed }: Ranked): NearMiss {
  return { ...taskSummary(task), score, matched, missed };
}
