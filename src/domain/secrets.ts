import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys derived from the master secret. Encryption uses AES-256-GCM with the key id in the ciphertext,
 * so a later key can be added and old values still read; signing uses HMAC-SHA256.
 */
export interface Keyring {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
  sign(message: string): string;
  verify(message: string, signature: string): boolean;
}

const KEY_ID = 'k1';

function derive(master: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, 'task-gateway', purpose, 32));
}

export function createKeyring(master: string): Keyring {
  const encryptionKey = derive(master, 'encryption:v1');
  const signingKey = derive(master, 'signing:v1');
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [KEY_ID, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(ciphertext) {
      const [keyId, iv, tag, body] = ciphertext.split('.');
      if (keyId !== KEY_ID || !iv || !tag || body === undefined) throw new Error('unreadable ciphertext');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    sign(message) {
      return createHmac('sha256', signingKey).update(message).digest('base64url');
    },
    verify(message, signature) {
      return safeEqual(createHmac('sha256', signingKey).update(message).digest('base64url'), signature);
    },
  };
}

/** Hash of a bearer secret (API key, principal-bound token, connect link); only this is stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A random secret with a recognisable prefix, e.g. gw_live_... */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}
