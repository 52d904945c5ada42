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
 * accepted only if it is one of the custom fields the tests (or the product) set. A field the server adds without
 * declaring it in the protocol fails every suite that sees it; add it to the schema (or, if a test of yours sets a
 * new custom field, to this list).
 */
export const TEST_CUSTOM_KEYS = new Set([
  // The product's channel fields (product-spec §5) and user fields.
  'caseplans',
  'organizations',
  'hasClient',
  'hasGuest',
  // Custom data the chat suites set.
  'color',
  'colour',
  'priority',
  'topic',
  'note',
  'mood',
  'tag',
  'tags',
  'kind',
  'label',
  'secret',
  'custom',
  'x',
  'n',
  'i',
  'seq_test',
  'department',
  'title',
  'payload',
  'extra',
  'level',
  'flag',
  'motd',
  'area',
  'city',
  'age',
  'meta',
  'source',
]);

const options: StrictOptions = { customKey: (key) => TEST_CUSTOM_KEYS.has(key) };

/** Thrown (and reported by vitest) when an answer or a frame breaks the protocol. */
export class ContractError extends Error {}

function check(schema: z.ZodType, value: unknown, what: string): void {
  const result = strictSchema(schema, options).safeParse(value);
  if (result.success) return;
  const issues = result.error.issues
    .slice(0, 5)
    .map((i) => `  ${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('\n');
  throw new ContractError(
    `${what} breaks the protocol:\n${issues}\n${JSON.stringify(value).slice(0, 1500)}`,
  );
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
