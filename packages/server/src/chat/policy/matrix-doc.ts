import {
  CHAT_ENDPOINT_RULES,
  CHAT_EVENT_AUDIENCE,
  CHAT_POSITION_HEADERS,
  CHAT_POSITION_LABELS,
  CHAT_POSITIONS,
  READERS,
  type ChatPosition,
  type EventAudience,
} from './matrix.js';

/** The markers of the chat section in `docs/permissions.md`. */
export const CHAT_DOC_BEGIN = '<!-- chat-permissions:begin -->';
export const CHAT_DOC_END = '<!-- chat-permissions:end -->';

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const header = (first: string[]) => [
  row([...first, ...CHAT_POSITIONS.map((p) => CHAT_POSITION_HEADERS[p])]),
  `|${first.map(() => '---').join('|')}|${CHAT_POSITIONS.map(() => ':-:').join('|')}|`,
];

function endpointCell(
  allow: readonly ChatPosition[],
  sees: readonly ChatPosition[] | undefined,
  p: ChatPosition,
) {
  if (!allow.includes(p)) return '—';
  if (!sees) return 'yes';
  return sees.includes(p) ? 'sees' : 'empty';
}

const EVENT_CELL: Record<EventAudience, (p: ChatPosition) => string> = {
  readers: (p) => (READERS.includes(p) ? 'yes' : '—'),
  readersAndSubject: (p) => (READERS.includes(p) ? 'yes' : 'own'),
  connection: () => 'own',
  never: () => '—',
};

/** The chat section of `docs/permissions.md` (between its markers), rendered from `policy/matrix`. */
export function renderChatPermissions(): string {
  const positions = [
    row(['position', 'who']),
    '|---|---|',
    ...CHAT_POSITIONS.map((p) => row([CHAT_POSITION_HEADERS[p], CHAT_POSITION_LABELS[p]])),
  ];
  const endpoints = [
    ...header(['endpoint', 'rule']),
    ...Object.entries(CHAT_ENDPOINT_RULES).map(([endpoint, rule]) =>
      row([
        `\`${endpoint}\``,
        rule.note,
        ...CHAT_POSITIONS.map((p) => endpointCell(rule.allow, rule.sees, p)),
      ]),
    ),
  ];
  const events = [
    ...header(['event', 'audience']),
    ...Object.entries(CHAT_EVENT_AUDIENCE).map(([type, audience]) =>
      row([`\`${type}\``, audience, ...CHAT_POSITIONS.map((p) => EVENT_CELL[audience](p))]),
    ),
  ];
  return [
    '### Positions',
    '',
    ...positions,
    '',
    '### Endpoints',
    '',
    '`yes`: answers 2xx; `—`: refused (4xx) and changes nothing; for calls about oneself, `sees` / `empty`: whether',
    'the answer carries the channel’s data.',
    '',
    ...endpoints,
    '',
    '### Events',
    '',
    '`yes`: receives the event type about the channel (or about one of its members); `own`: only when it is about',
    'themselves (their invite, their removal) or their own connection; `—`: never.',
    '',
    ...events,
  ].join('\n');
}
