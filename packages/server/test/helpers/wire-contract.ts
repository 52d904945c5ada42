import { checkAnswer as check, checkFrame as checkOne, CustomKeys } from '@caseroom/protocol';

/**
 * The protocol as the contract on the wire (issue 13 §8, STYLE.md point 6): every chat answer and every socket frame
 * the server suites see is parsed with the protocol's schema, strictly (protocol's contract.ts). Production parses
 * none of it; this is the tests' switch.
 *
 * Custom data sits at the top level of users, channels, messages and custom events, so an undeclared key there is
 * accepted only if it is custom data: a key some test sent in a chat request body ({@link learnCustomKeys}) or one
 * of the product's channel fields. A field the server adds without declaring it in the protocol fails every suite
 * that sees it: declare it in the schema.
 */
const keys = new CustomKeys();

/** Records every key of a request body (at any depth) as custom data the tests may see again. */
export function learnCustomKeys(body: unknown): void {
  keys.learn(body);
}

/** Checks one chat HTTP answer: an error body for 4xx/5xx, else the endpoint's response schema. */
export function checkAnswer(method: string, path: string, status: number, body: unknown): void {
  // 431 is written by the HTTP parser before a request exists (no path, no route, no chat): not a chat answer.
  if (status === 431) return;
  check(method, path, status, body, keys.options);
}

/** Checks one socket frame: a server event by its type's schema, anything else as a custom event. */
export function checkFrame(frame: unknown): void {
  checkOne(frame, keys.options);
}
