import { writeFileSync } from 'node:fs';
import { runCatalogEntries } from './servers.js';

/** The run input the limits allow that costs the most: about 1 MiB and 100,000 values, answered whole (path ""). */
export function worstInput(): string {
  // The object, the array, 49,998 objects of one member each (two values apiece) and the path: 100,000 values.
  const items = new Array(49_998).fill('{"k":"xxxxxxxxxxx"}').join(',');
  return `{"document":[${items}],"path":""}`;
}

/** The tasks whose upstream answers the review used (bench/abuse-upstream.ts), beside the tenant's weather task. */
export const ANSWER_TASKS = { big: 'abuse-up.big.get', many: 'abuse-up.many.get', deep: 'abuse-up.deep.get' } as const;

export function writeAbuseCatalog(file: string, upstreamUrl: string): void {
  const task = (id: string, path: string, title: string) => ({
    id,
    provider: 'abuse-up',
    capability: `abuse.${id.split('.')[1]}.get`,
    kind: 'data',
    title,
    description: `${title} (bench:abuse upstream).`,
    price_usd: 0,
    input: { type: 'object', additionalProperties: false },
    request: { method: 'GET', path },
  });
  const run = runCatalogEntries(upstreamUrl);
  writeFileSync(
    file,
    JSON.stringify({
      providers: [run.provider, { slug: 'abuse-up', name: 'Abuse Upstream', base_url: upstreamUrl, auth: { type: 'none' } }],
      tasks: [
        run.task,
        task(ANSWER_TASKS.big, '/big', 'An answer just under 10 MiB'),
        task(ANSWER_TASKS.many, '/many', 'About 10 MiB of tiny objects'),
        task(ANSWER_TASKS.deep, '/deep', '100,000 nested arrays'),
      ],
    }),
  );
}
