import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../context.js';
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

export type ChannelParams = { type: string; id: string };
