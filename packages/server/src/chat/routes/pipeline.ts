import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../context.js';
import { findUnsafeInput, pathText } from '@caseroom/protocol';
import { inputError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the chat plugin's auth hook on every chat route. */
    chatActor: Actor | null;
  }
}

/** The authenticated actor of a chat request (the auth hook ran before any handler). */
export function actorOf(req: FastifyRequest): Actor {
  if (!req.chatActor) throw new Error('chat route reached without authentication');
  return req.chatActor;
}

/** Validates a payload with its protocol schema; failures answer code 4 naming the field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'body';
  throw inputError(`${where}: ${issue?.message ?? 'invalid'}`);
}

/**
 * A `?payload=<JSON>` query (users, members, search): parsed, checked like a body (text PostgreSQL can store, bounded
 * nesting), then validated with its schema; `fallback` when the query has none.
 */
export function parsePayload<S extends z.ZodType>(
  schema: S,
  raw: string | undefined,
  fallback?: unknown,
): z.infer<S> {
  let payload: unknown = fallback;
  if (raw || fallback === undefined) {
    try {
      payload = JSON.parse(raw ?? '');
    } catch {
      throw inputError('payload must be JSON');
    }
  }
  const problem = findUnsafeInput(payload);
  if (problem) throw inputError(`payload.${pathText(problem.path, '')}: ${problem.message}`);
  return parse(schema, payload);
}

export type ChannelParams = { type: string; id: string };
