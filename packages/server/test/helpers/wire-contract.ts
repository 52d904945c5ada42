import {
  CHAT_ENDPOINTS,
  ChatErrorBody,
  CustomEvent,
  SERVER_EVENT_SCHEMAS,
  strictSchema,
  type ChatEndpoint,
  type StrictOptions,
} from '@caseroom/protocol';
import type { z } from 'zod';

/**
 * The protocol as the contract on the wire (issue 13 §8, STYLE.md point 6): every chat answer and every socket frame
 * the server suites see is parsed with the protocol's schema, strictly (see `strictSchema`). Production parses
 * none of it; this is the tests' switch.
 *
 * Custom data sits at the top level of users, channels, messages and custom events, so an undeclared key there is
 * accepted only if it is custom data: a key some test sent in a chat request body ({@link learnCustomKeys}) or one
 * the product sets through the server API (below). A field the server adds without declaring it in the protocol
 * fails every suite that sees it: declare it in the schema.
 */
const PRODUCT_CUSTOM_KEYS = ['caseplans', 'organizations', 'hasClient', 'hasGuest'];

const customKeys = new Set<string>(PRODUCT_CUSTOM_KEYS);

/** Records every key of a request body (at any depth) as custom data the tests may see again. */
export function learnCustomKeys(body: unknown): void {
  if (Array.isArray(body)) for (const v of body) learnCustomKeys(v);
  else if (body !== null && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) {
      customKeys.add(k);
      learnCustomKeys(v);
    }
  }
}

const options: StrictOptions = { customKey: (key) => customKeys.has(key) };

/** Thrown (and reported by vitest) when an answer or a frame breaks the protocol. */
export class ContractError extends Error {}

function check(schema: z.ZodType, value: unknown, what: string): void {
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

const routes: Route[] = CHAT_ENDPOINTS.map((endpoint) => {
  const segments = endpoint.path.split('/');
  const pattern = new RegExp(
    `^${segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
  );
  return { endpoint, pattern, literals: segments.filter((s) => s && !s.startsWith('{')).length };
}).sort((a, b) => b.literals - a.literals);

/** The endpoint of the table that answers `method path` (`/chat/...`, query string ignored). */
export function endpointOf(method: string, path: string): ChatEndpoint | undefined {
  const bare = path.split('?')[0] ?? path;
  return routes.find((r) => r.endpoint.method === method.toUpperCase() && r.pattern.test(bare))?.endpoint;
}

/** Checks one chat HTTP answer: an error body for 4xx/5xx, else the endpoint's response schema. */
export function checkAnswer(method: string, path: string, status: number, body: unknown): void {
  const what = `${method} ${path} (${status})`;
  if (status >= 400) {
    check(ChatErrorBody, body, what);
    return;
  }
  const endpoint = endpointOf(method, path);
  if (!endpoint) throw new ContractError(`${what}: no endpoint in CHAT_ENDPOINTS answers it`);
  if (!endpoint.response) throw new ContractError(`${what}: its endpoint declares no response schema`);
  check(endpoint.response, body, what);
}

/** Checks one socket frame: a server event by its type's schema, anything else as a custom event. */
export function checkFrame(frame: unknown): void {
  const type = (frame as { type?: unknown } | null)?.type;
  const schema = typeof type === 'string' ? SERVER_EVENT_SCHEMAS.get(type) : undefined;
  check(schema ?? CustomEvent, frame, `frame ${String(type)}`);
}
