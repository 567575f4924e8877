/**
 * The catalog's shapes. Catalog files (JSON or YAML) are a documented interface:
 * docs/catalog.md describes them for self-hosters; the loader validates them into these types.
 */

export type { JsonTemplate, Provider, ProviderAuth, ProviderProbe, TaskRequest } from '../../providers/shapes.js';
import type { Provider, TaskRequest } from '../../providers/shapes.js';
import type { TaskAnnotations } from './annotations.js';

export const TASK_KINDS = ['data', 'action', 'account', 'utility'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export type TaskStatus = 'active' | 'retired' | 'broken';


export type JsonSchema = Record<string, unknown>;

export interface Task {
  /** Dotted: `<provider>.<name...>`. */
  id: string;
  provider: string;
  /** The provider-neutral job, e.g. `weather.current`; tasks sharing it are interchangeable routes. */
  capability: string;
  kind: TaskKind;
  title: string;
  description: string;
  keywords: string[];
  price_usd: number;
  /** Price in integer micro-dollars; all money arithmetic uses this. */
  price_micros: number;
  /** Provider scopes the task needs on an account connection. */
  scopes: string[];
  /** JSON Schema of the input, validated before any upstream call. */
  input: JsonSchema;
  /**
   * JSON Schema of the provider's answer, when the catalog says what it looks like: shown to callers and agents,
   * never used to refuse an answer (providers add fields and change shapes without notice).
   */
  output?: JsonSchema;
  /** What running it does (reads, destroys, repeats safely): implied by its kind, overridden by the catalog. */
  annotations: TaskAnnotations;
  /** The upstream request template; absent for utility tasks. */
  request?: TaskRequest;
  /** Utility tasks name their in-process handler. */
  handler?: string;
  /** `empty`: an upstream 404 is a hit carrying the provider's answer. */
  not_found?: 'empty';
  status: TaskStatus;
}

export interface Catalog {
  /** First 12 hex digits of the SHA-256 of the merged catalog in canonical form. */
  version: string;
  providers: ReadonlyMap<string, Provider>;
  tasks: ReadonlyMap<string, Task>;
  /** Groups of interchangeable words for discovery, e.g. [[email, mail, message]]. */
  synonyms: string[][];
  /** Tasks of one capability, in catalog order. */
  tasksForCapability(capability: string): Task[];
}
