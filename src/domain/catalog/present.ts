import type { Provider, Task } from './types.js';

/** The short form of a task, shared by task lists, capabilities and discovery candidates. */
export function presentTaskSummary(task: Task) {
  return {
    id: task.id,
    provider: task.provider,
    capability: task.capability,
    kind: task.kind,
    title: task.title,
    description: task.description,
    price_usd: task.price_usd,
    status: task.status,
  };
}

export type TaskSummary = ReturnType<typeof presentTaskSummary>;

/**
 * GET /v1/tasks/{id}: everything a caller needs to run the task: its input schema and price, what its answer
 * looks like when the catalog says (`output`, else null), what running it does (`annotations`), the scopes
 * an account connection needs, and what credential the provider takes. Never the upstream template or a secret.
 */
export function presentTask(task: Task, provider: Provider) {
  return {
    ...presentTaskSummary(task),
    keywords: task.keywords,
    scopes: task.scopes,
    input: task.input,
    output: task.output ?? null,
    annotations: task.annotations,
    auth: provider.auth.type,
    platform_credential: hasPlatformCredential(provider),
    zero_retention: provider.zero_retention,
  };
}

export function hasPlatformCredential(provider: Provider): boolean {
  return provider.platformSecret?.() !== undefined;
}

/** ProviderSummary: never the platform credential's value or variable name, only whether one is set. */
export function presentProvider(provider: Provider, taskCount: number) {
  return {
    slug: provider.slug,
    name: provider.name,
    description: provider.description ?? null,
    auth: provider.auth.type,
    scopes: provider.auth.type === 'oauth2' ? provider.auth.scopes : [],
    zero_retention: provider.zero_retention,
    platform_credential: hasPlatformCredential(provider),
    task_count: taskCount,
  };
}
