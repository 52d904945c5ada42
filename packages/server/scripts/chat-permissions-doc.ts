/** Writes the chat section of docs/permissions.md from `src/chat/policy/matrix.ts`. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHAT_DOC_BEGIN, CHAT_DOC_END, renderChatPermissions } from '../src/chat/policy/matrix-doc.js';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/permissions.md');
const doc = fs.readFileSync(target, 'utf8');
const begin = doc.indexOf(CHAT_DOC_BEGIN);
const end = doc.indexOf(CHAT_DOC_END);
if (begin < 0 || end < begin)
  throw new Error(`docs/permissions.md has no ${CHAT_DOC_BEGIN} ... ${CHAT_DOC_END}`);
fs.writeFileSync(
  target,
  `${doc.slice(0, begin + CHAT_DOC_BEGIN.length)}\n${renderChatPermissions()}\n${doc.slice(end)}`,
);
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
