/** The part of autocannon 9's API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      pipelining?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      requests?: Request[];
    }
    interface Result {
      requests: { total: number; average: number };
      non2xx: number;
      errors: number;
      timeouts: number;
    }
  }

  function autocannon(options: autocannon.Options, done: (error: Error | null, result: autocannon.Result) => void): EventEmitter;
  export default autocannon;
}
