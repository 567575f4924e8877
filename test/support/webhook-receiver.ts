import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, checked with the Standard Webhooks reference verifier. */
export interface Receipt {
  webhookId: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** True when the signature verified with the receiver's secret (and the timestamp is fresh). */
  verified: boolean;
  receivedAt: number;
  /** The status the receiver answered with (null when it held the request open). */
  answeredWith: number | null;
}

/** How the receiver answers one request: a status and headers (after `delayMs`), or no answer at all (the request is held open). */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number; body?: string } | { hang: true };

export interface Receiver {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  /** The webhook's signing secret; set it once the webhook is registered. */
  secret: string | null;
  receipts: Receipt[];
  /** Decides each answer; `n` counts requests from 1. Replace it to change behaviour mid-test. */
  answer: (n: number, receipt: Receipt) => Answer;
  close(): Promise<void>;
}

function verify(secret: string | null, body: string, headers: IncomingHttpHeaders): boolean {
  if (!secret) return false;
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** A real HTTP receiver on 127.0.0.1 that records and verifies every webhook it is sent. */
export async function startReceiver(answer: Receiver['answer'] = () => ({ status: 204 })): Promise<Receiver> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const receipt: Receipt = {
        webhookId: String(request.headers['webhook-id']),
        headers: request.headers,
        body,
        verified: verify(receiver.secret, body, request.headers),
        receivedAt: Date.now(),
        answeredWith: null,
      };
      receiver.receipts.push(receipt);
      const decided = receiver.answer(receiver.receipts.length, receipt);
      if ('hang' in decided) return;
      receipt.answeredWith = decided.status;
      setTimeout(() => response.writeHead(decided.status, decided.headers).end(decided.body), decided.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    secret: null,
    receipts: [],
    answer,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/** Polls `check` until it returns true, failing with `what` after `timeoutMs`; outcomes are asserted, never durations. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15000, intervalMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
