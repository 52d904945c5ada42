import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** The social sign-in providers Caseroom offers; one client each at the test provider. */
export const SOCIAL_PROVIDERS = ['google', 'microsoft', 'apple'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** What the provider saw of one authorization request (to check PKCE, state and nonce were sent). */
export interface AuthorizationRequest {
  clientId: string;
  codeChallengeMethod: string | undefined;
  hasState: boolean;
  hasNonce: boolean;
  responseMode: string | undefined;
}

/** A real OpenID provider on loopback standing in for Google, Microsoft and Apple. */
export interface TestOidcProvider {
  /** `http://localhost:<port>`: another site than the app on 127.0.0.1, as a real provider is. */
  issuer: string;
  /** Server env enabling `providers` (client id, secret and issuer of each). */
  env(providers?: readonly SocialProvider[]): Record<string, string>;
  authorizations: AuthorizationRequest[];
  close(): Promise<void>;
}

/** The account behind an address at the provider: a stable opaque subject, a verified address, a name. */
function claimsOf(email: string) {
  const local = email.split('@')[0] ?? email;
  const name = local
    .split(/[._-]+/)
    .filter((word) => !/^[0-9a-f]{8}$/.test(word))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
  return {
    sub: crypto.createHash('sha256').update(email).digest('hex').slice(0, 24),
    email,
    email_verified: true,
    name,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The provider's sign-in page: who are you (any address is an account here, as in a test IdP). */
function loginPage(uid: string, clientId: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test provider sign-in</title></head>
<body><main>
<h1>Sign in to the test provider</h1>
<p>${escapeHtml(clientId)} asks who you are.</p>
<form method="post" action="/interaction/${encodeURIComponent(uid)}">
<label>E-mail <input type="email" name="email" required autofocus></label>
<button type="submit">Continue</button>
</form></main></body></html>`;
}

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

/**
 * Starts `oidc-provider` on a free loopback port with one confidential client per social provider, whose
 * redirect URI is Caseroom's callback at `appUrl`. PKCE (S256) is required; the sign-in interaction is a
 * one-field form (the e-mail address) the test fills; consent is granted without asking (first-party apps).
 */
export async function startOidcProvider(appUrl: string): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://localhost:${port}`;

  const secrets = Object.fromEntries(
    SOCIAL_PROVIDERS.map((id) => [id, crypto.randomBytes(24).toString('base64url')]),
  ) as Record<SocialProvider, string>;
  const clientId = (id: SocialProvider) => `caseroom-${id}`;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'e2e', alg: 'RS256', use: 'sig' };

  const configuration: Configuration = {
    clients: SOCIAL_PROVIDERS.map((id) => ({
      client_id: clientId(id),
      client_secret: secrets[id],
      redirect_uris: [`${appUrl}/api/auth/callback/${id}`],
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [signingKey] },
    cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    // Explicit lifetimes (seconds), which also keeps the provider from logging its defaults' notices.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], name: ['name'] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => claimsOf(id) }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // First-party clients: the grant is made without a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { oidc } = ctx;
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const existing = oidc.session.grantIdFor(oidc.client.clientId);
      if (existing) return oidc.provider.Grant.find(existing);
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile name');
      grant.addOIDCClaims(['email', 'email_verified', 'name']);
      await grant.save();
      oidc.session.ensureClientContainer(oidc.client.clientId);
      oidc.session.grantIdFor(oidc.client.clientId, grant.jti);
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);

  const authorizations: AuthorizationRequest[] = [];
  provider.use(async (ctx, next) => {
    if (ctx.path === '/auth') {
      const q = ctx.query as Record<string, string | undefined>;
      authorizations.push({
        clientId: q.client_id ?? '',
        codeChallengeMethod: q.code_challenge_method,
        hasState: Boolean(q.state),
        hasNonce: Boolean(q.nonce),
        responseMode: q.response_mode,
      });
    }
    await next();
  });

  const callback = provider.callback();
  server.on('request', (req, res) => {
    const uid = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (!uid) return void callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(loginPage(uid, String(details.params.client_id ?? '')));
        return;
      }
      const email = (await readForm(req)).get('email')?.trim().toLowerCase() ?? '';
      await provider.interactionFinished(
        req,
        res,
        email ? { login: { accountId: email } } : { error: 'access_denied' },
        { mergeWithLastSubmission: false },
      );
    })().catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(err instanceof Error ? err.message : String(err));
    });
  });

  return {
    issuer,
    authorizations,
    env(providers = SOCIAL_PROVIDERS) {
      const env: Record<string, string> = {};
      for (const id of providers) {
        const prefix = id.toUpperCase();
        env[`${prefix}_CLIENT_ID`] = clientId(id);
        env[`${prefix}_CLIENT_SECRET`] = secrets[id];
        env[`${prefix}_ISSUER`] = issuer;
      }
      return env;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
