/** A token, or a function that fetches a fresh one (called again when the server says code 40). */
export type TokenProvider = string | (() => Promise<string>);

/** Holds the current chat JWT and refreshes it, one refresh at a time. */
export class TokenManager {
  private token: string | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly provider: TokenProvider | undefined) {}

  get anonymous(): boolean {
    return this.provider === undefined;
  }

  /** The current token, loading it first if needed; refreshes a token whose `exp` has passed. */
  async get(): Promise<string | undefined> {
    if (this.provider === undefined) return undefined;
    if (this.token !== undefined && !isExpired(this.token)) return this.token;
    return this.refresh();
  }

  /** The cached token, without loading. */
  peek(): string | undefined {
    return this.token;
  }

  /** Asks the provider for a new token; concurrent callers share one request. */
  refresh(): Promise<string> {
    const provider = this.provider;
    if (provider === undefined) return Promise.reject(new Error('anonymous connections have no token'));
    if (typeof provider === 'string') {
      this.token = provider;
      return Promise.resolve(provider);
    }
    this.pending ??= provider().then(
      (token) => {
        this.token = token;
        this.pending = undefined;
        return token;
      },
      (error: unknown) => {
        this.pending = undefined;
        throw error;
      },
    );
    return this.pending;
  }
}

/** True when the JWT carries an `exp` claim in the past. Unreadable tokens count as valid. */
export function isExpired(token: string, now: number = Date.now()): boolean {
  const payload = token.split('.')[1];
  if (!payload) return false;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='))) as {
      exp?: unknown;
    };
    return typeof claims.exp === 'number' && claims.exp * 1000 <= now;
  } catch {
    return false;
  }
}
