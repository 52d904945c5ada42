import type { z } from 'zod';

/** One endpoint of the chat HTTP API (under `/chat`). */
export interface ChatEndpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  response?: z.ZodType;
}

/** An endpoint entry of the API lists (`CHAT_ENDPOINTS` and the parts it is made of). */
export const ep = (
  method: ChatEndpoint['method'],
  path: string,
  summary: string,
  parts: Omit<ChatEndpoint, 'method' | 'path' | 'summary'> = {},
): ChatEndpoint => ({ method, path, summary, ...parts });
