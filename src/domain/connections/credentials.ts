import type { Keyring } from '../secrets.js';

/**
 * A provider credential as stored (encrypted) on a connection: an API key, or OAuth2 tokens with the
 * access token's expiry in epoch milliseconds.
 */
export type StoredCredential =
  | { type: 'api_key'; secret: string }
  | { type: 'oauth2'; access_token: string; refresh_token?: string; expires_at?: number; scopes?: string[] };

export function sealCredential(keyring: Keyring, credential: StoredCredential): string {
  return keyring.encrypt(JSON.stringify(credential));
}

export function openCredential(keyring: Keyring, sealed: string): StoredCredential {
  return JSON.parse(keyring.decrypt(sealed)) as StoredCredential;
}

/** The value sent to the provider: the API key, or the OAuth2 access token. */
export function secretOf(credential: StoredCredential): string {
  return credential.type === 'api_key' ? credential.secret : credential.access_token;
}
