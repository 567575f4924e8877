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

/** A request template rendered a URL outside its provider's base URL: nothing was sent. */
export class RequestOutsideProvider extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'RequestOutsideProvider';
  }
}
