/** One field of an input that a provider cannot use, and why. */
export interface FieldProblem {
  name: string;
  reason: string;
}

/** The input cannot make this request or computation (a bad path segment, an unknown unit): the caller's to fix. */
export class InputRefused extends Error {
  constructor(
    detail: string,
    readonly problems: FieldProblem[],
  ) {
    super(detail);
    this.name = 'InputRefused';
  }
}

/** A URL no outbound request may reach (a private, loopback or metadata address, plain http, credentials in it). */
export class TargetRefused extends Error {
  /** What the socket layer reports when the guard refuses an address at connect time. */
  readonly code = 'ETARGETREFUSED';

  constructor(reason: string) {
    super(reason);
    this.name = 'TargetRefused';
  }
}

/** A request template rendered a URL outside its provider's base URL: nothing was sent. */
export class RequestOutsideProvider extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'RequestOutsideProvider';
  }
}
