/**
 * A provider and a task's request template, as catalog files describe them (docs/catalog.md): what the
 * upstream code needs to build and send a request. The catalog's own types (src/domain/catalog) use these.
 */

export type ProviderAuth =
  | { type: 'none' }
  /**
   * `template` renders the secret into `header`, e.g. header Authorization, template "Bearer {secret}";
   * providers that take the key only in the URL (OpenWeatherMap's `appid`) name a `query` parameter instead.
   * Exactly one of `header` and `query` is set.
   */
  | { type: 'api_key'; header?: string; query?: string; template: string }
  | {
      type: 'oauth2';
      authorize_url: string;
      token_url: string;
      revoke_url?: string;
      /** Default scopes asked for when a connect session names none. */
      scopes: string[];
      pkce: boolean;
      /** How the client secret reaches the token and revocation endpoints (default client_secret_basic). */
      token_auth?: 'client_secret_basic' | 'client_secret_post';
      /** Separator of the scope parameter (default a space; Slack-style providers use a comma). */
      scope_separator?: string;
      /** Extra authorization request parameters, e.g. {access_type: offline, prompt: consent}. */
      authorize_params?: Record<string, string>;
    };

export interface ProviderProbe {
  method: 'GET' | 'POST';
  path: string;
  /** JSON pointers into the probe's answer: the provider account's stable id and display name. */
  account_id?: string;
  account_name?: string;
}

export interface Provider {
  slug: string;
  name: string;
  description?: string;
  base_url: string;
  auth: ProviderAuth;
  /** The operator's own paid credential, read from an environment variable when the catalog loads. */
  platform_credential?: { env: string };
  /** The operator's OAuth app, from environment variables; used when an organization has none of its own. */
  managed_oauth_app?: { client_id_env: string; client_secret_env: string };
  zero_retention: boolean;
  probe?: ProviderProbe;
  /** Static headers sent on every request to the provider, probes included (e.g. GitHub's Accept and API version). */
  headers?: Record<string, string>;
  /**
   * The platform credential's value, read from `platform_credential.env` when the catalog loaded; undefined
   * when unset. A function so it never serialises into a response, log, capture or the version hash.
   */
  platformSecret?: () => string | undefined;
}

export interface TaskRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `{field}` is the input field, URL-encoded. */
  path: string;
  /** A query entry whose field is absent from the input is left out. */
  query?: Record<string, string>;
  /** Static extra headers, e.g. Accept. */
  headers?: Record<string, string>;
  /**
   * Body template for POST, PUT and PATCH (docs/catalog.md): a string that is exactly `{field}` becomes the
   * input value (left out when absent), `{field}` inside a longer string is interpolated, and
   * `{$base64url: "..."}` encodes its rendered string. Without it the body is the input minus the path fields.
   */
  body?: JsonTemplate;
  /** `json` (default) or `form` (application/x-www-form-urlencoded, nested keys in brackets as Stripe expects). */
  body_encoding?: 'json' | 'form';
}

export type JsonTemplate = string | number | boolean | null | JsonTemplate[] | { [key: string]: JsonTemplate };
