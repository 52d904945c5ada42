/** Writes docs/chat-api.md from the protocol schemas (`npm run docs:chat-api`). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderChatApiDoc } from '../src/chat/docs/api-doc.js';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/chat-api.md');
fs.writeFileSync(target, renderChatApiDoc());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
