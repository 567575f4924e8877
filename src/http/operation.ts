import type { Lifecycle, Request, ResponseToolkit, RouteOptions, RouteOptionsValidate, ServerRoute } from '@hapi/hapi';
import type Joi from 'joi';

/** What a route's request holds once its input schemas accepted it. */
interface Inputs<Params, Query, Payload, Headers> {
  Params: Params;
  Query: Query;
  Payload: Payload;
  Headers: Headers;
}

type NoInput = Record<string, never>;

/**
 * A route whose handler reads its input as its joi schemas describe it: `Joi.object<T>(...)` for params and
 * query, any `Joi.Schema<T>` for the payload, `headers<T>(...)` for the headers it reads. The schema that
 * checks a request is also the handler's type, so no handler casts what it was given.
 */
export function operation<Params = NoInput, Query = NoInput, Payload = undefined, Headers = Record<string, unknown>>(route: {
  method: ServerRoute['method'];
  path: string;
  options?: Omit<RouteOptions<Inputs<Params, Query, Payload, Headers>>, 'validate' | 'handler'> & {
    validate?: Omit<RouteOptionsValidate, 'params' | 'query' | 'payload' | 'headers'> & {
      params?: Joi.ObjectSchema<Params>;
      query?: Joi.ObjectSchema<Query>;
      payload?: Joi.Schema<Payload>;
      headers?: Joi.ObjectSchema<Headers>;
    };
  };
  handler: (request: Request<Inputs<Params, Query, Payload, Headers>>, h: ResponseToolkit<Inputs<Params, Query, Payload, Headers>>) => Lifecycle.ReturnValue<Inputs<Params, Query, Payload, Headers>>;
}): ServerRoute {
  // hapi's route table holds routes of any input: the typed handler is what this function exists to check.
  return route as unknown as ServerRoute;
}
