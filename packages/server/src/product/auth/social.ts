import { genericOAuth } from 'better-auth/plugins';
import type { Config } from '../../platform/config.js';

/** The OpenID Connect providers we offer, with their production issuers (each overridable: `GOOGLE_ISSUER`...). */
export const DEFAULT_ISSUERS = {
  google: 'https://accounts.google.com',
  // Personal Microsoft accounts; set MICROSOFT_ISSUER to https://login.microsoftonline.com/<tenant>/v2.0 for work
  // accounts of one tenant (the "common" endpoint has no fixed issuer, so its ID tokens cannot be checked).
  microsoft: 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0',
  apple: 'https://appleid.apple.com',
} as const;

export type SocialProvider = keyof typeof DEFAULT_ISSUERS;

/**
 * better-auth's generic OAuth plugin, one OIDC provider per configured client id/secret. Discovery gives the
 * endpoints and the issuer; PKCE (S256) and state are on, the callback's `iss` must equal the discovered
 * issuer, and the ID token is verified (signature by the provider's JWKS, `iss`, `aud`, nonce).
 */
export function socialSignIn(config: Config) {
  const providers = (Object.keys(DEFAULT_ISSUERS) as SocialProvider[]).flatMap((id) => {
    const client = config.oauth[id];
    if (!client) return [];
    const issuer = (client.issuer ?? DEFAULT_ISSUERS[id]).replace(/\/$/, '');
    return [
      {
        providerId: id,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        discoveryUrl: `${issuer}/.well-known/openid-configuration`,
        scopes: ['openid', 'email', 'profile'],
        pkce: true,
        requireIdTokenVerification: true,
        // Apple posts the answer back (form_post) when e-mail and name are asked for.
        ...(id === 'apple'
          ? { responseMode: 'form_post' as const, scopes: ['openid', 'email', 'name'] }
          : {}),
      },
    ];
  });
  return providers.length > 0 ? [genericOAuth({ config: providers })] : [];
}
