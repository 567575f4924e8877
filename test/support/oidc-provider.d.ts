/** oidc-provider 8 ships no type declarations; the tests use it through test/support/oauth-server.ts only. */
declare module 'oidc-provider';
