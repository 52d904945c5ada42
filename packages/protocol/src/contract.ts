import type { z } from 'zod';
import { ChatErrorBody } from './errors.js';
import { CHAT_ENDPOINTS, type ChatEndpoint } from './chat/api.js';
import { CustomEvent, SERVER_EVENT_SCHEMAS } from './chat/events.js';
import { strictSchema, type StrictOptions } from './strict.js';

/**
 * The protocol as the contract on the wire, for tests (issue 13 §8, STYLE.md point 6): an answer is checked against
 * its endpoint's response schema and a frame against its event's schema, strictly ({@link strictSchema}). The server
 * suites check everything they receive, the SDK's fake server everything it sends; production checks nothing.
 */
export class ContractError extends Error {}

/**
 * Custom data keys seen so far: every key of every request body a test sent (custom data comes back at the top level
 * of users, channels, messages and custom events), plus the product's channel fields.
 */
export class CustomKeys {
  private readonly keys = new Set(['caseplans', 'organizations', 'hasClient', 'hasGuest']);
  readonly options: StrictOptions = { customKey: (key) => this.keys.has(key) };

  /** Records every key of `value`, at any depth. */
  learn(value: unknown): void {
    if (Array.isArray(value)) for (const v of value) this.learn(v);
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        this.keys.add(k);
        this.learn(v);
      }
    }
  }
}

function check(schema: z.ZodType, value: unknown, what: string, options: StrictOptions): void {
  const result = strictSchema(schema, options).safeParse(value);
  if (result.success) return;
  const issues = result.error.issues
    .slice(0, 5)
    .map((i) => `  ${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('\n');
  throw new ContractError(`${what} breaks the protocol:\n${issues}\n${JSON.stringify(value).slice(0, 1500)}`);
}

interface Route {
  endpoint: ChatEndpoint;
  pattern: RegExp;
  literals: number;
}

let routes: Route[] | undefined;

/** The endpoint of `CHAT_ENDPOINTS` that answers `method path` (`/chat/...`; a query string is ignored). */
export function endpointOf(method: string, path: string): ChatEndpoint | undefined {
  routes ??= CHAT_ENDPOINTS.map((endpoint) => {
    const segments = endpoint.path.split('/');
    const source = segments
      .map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('/');
    return {
      endpoint,
      pattern: new RegExp(`^${source}$`),
      literals: segments.filter((s) => s && !s.startsWith('{')).length,
    };
  }).sort((a, b) => b.literals - a.literals);
  const bare = path.split('?')[0] ?? path;
  const upper = method.toUpperCase();
  return routes.find((r) => r.endpoint.method === upper && r.pattern.test(bare))?.endpoint;
}

/** Checks one chat HTTP answer: the error body for 4xx/5xx, else the endpoint's response schema. */
export function checkAnswer(
  method: string,
  path: string,
  status: number,
  body: unknown,
  options: StrictOptions = {},
): void {
  const what = `${method} ${path} (${status})`;
  if (status >= 400) return check(ChatErrorBody, body, what, options);
  const endpoint = endpointOf(method, path);
  if (!endpoint) throw new ContractError(`${what}: no endpoint in CHAT_ENDPOINTS answers it`);
  if (!endpoint.response) throw new ContractError(`${what}: its endpoint declares no response schema`);
  check(endpoint.response, body, what, options);
}

/** Checks one socket frame (or long-poll event): a server event by its type's schema, else a custom event. */
export function checkFrame(frame: unknown, options: StrictOptions = {}): void {
  const type = (frame as { type?: unknown } | null)?.type;
  const schema = typeof type === 'string' ? SERVER_EVENT_SCHEMAS.get(type) : undefined;
  check(schema ?? CustomEvent, frame, `frame ${String(type)}`, options);
}
