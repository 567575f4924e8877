import { invalidInput } from '../errors.js';

/** A run as the HTTP layer hands it over: the task, its input and the run headers (already checked for shape). */
export interface RunRequest {
  taskId: string;
  /** The body minus `receipt_options`. */
  input: Record<string, unknown>;
  /** `svc-principal`. */
  principal?: string;
  /** `receipt_options.principal` from the body. */
  receiptPrincipal?: string;
  connectionId?: string;
  account?: string;
  credential?: string;
  /** USD decimal string, e.g. "0.005". */
  maxCost?: string;
  fallback?: 'platform';
  tag?: string;
  /** Comma lists of provider slugs. */
  order?: string;
  only?: string;
  sort?: 'cost' | 'latency' | 'reliability';
  zeroRetention?: boolean;
  version?: string;
  idempotencyKey?: string;
  /** `svc-approval`: the approval this run goes under (docs/approvals.md). */
  approvalId?: string;
  /**
   * An MCP retry: without `svc-approval`, the newest live approval asked for exactly this run answers, since
   * an agent retries the same call once its user has been to the page.
   */
  approvalByRetry?: boolean;
}

/** The pattern of `svc-max-cost`: a USD amount with at most six decimals (micro-dollars). */
export const USD_DECIMAL = /^\d{1,7}(\.\d{1,6})?$/;

/** An exact USD decimal string in integer micro-dollars (no floating point on the way). */
export function usdToMicros(text: string): number {
  if (!USD_DECIMAL.test(text)) throw invalidInput('svc-max-cost must be a USD amount such as 0.005', [{ name: 'headers.svc-max-cost', reason: 'not a USD decimal' }]);
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
}

export function microsToUsd(micros: number): number {
  return micros / 1_000_000;
}

/** `a, b ,c` -> [a, b, c]. */
export function slugList(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(',').map((s) => s.trim()).filter(Boolean);
}
