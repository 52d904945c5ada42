/**
 * What every system under test offers the scenarios: rooms (channels / MUC rooms) with members, clients that join
 * them and report each benchmark message they receive, and sends acknowledged the system's way (Caseroom: the HTTP
 * answer after commit; XMPP: the room's reflection of the sender's own message).
 */

/** A benchmark message as received: sender index, sequence number, send timestamp (ms, generator clock). */
export interface Mark {
  sender: number;
  seq: number;
  ts: number;
}

/** `delayed`: the message came as history (XMPP `urn:xmpp:delay`), not live. */
export type OnMark = (mark: Mark, delayed?: boolean) => void;

export interface RoomClient {
  /** Sends a benchmark message into the room; resolves when the system acknowledged it. */
  send(mark: Mark): Promise<void>;
  close(): Promise<void>;
}

export interface IdleClient {
  close(): Promise<void>;
}

export interface Driver {
  readonly name: string;
  /** Processes of the server under test (CPU and memory are read from them). */
  serverPids(): number[];
  /** Processes of a separate database, if the system uses one (reported apart). */
  dbPids(): number[];
  /** Creates users and a room with them as members (XMPP: members join on connect). */
  createRoom(room: string, members: string[], options: { archive: boolean }): Promise<void>;
  /** Connects `user` as client `index` and joins `room`; `onMark` sees every benchmark message that arrives. */
  join(room: string, user: string, index: number, onMark: OnMark): Promise<RoomClient>;
  /** Connects an authenticated client that stays idle. */
  connectIdle(user: string, index: number): Promise<IdleClient>;
  stop(): Promise<void>;
}

/** The marker as text: `bench|<sender>|<seq>|<ts>|`. */
export function markText(mark: Mark): string {
  return `bench|${mark.sender}|${mark.seq}|${mark.ts}|`;
}

/** Finds every marker in a chunk of text (markers never span chunks on the systems driven here). */
export function scanMarks(text: string, onMark: OnMark, from = 0): void {
  let i = text.indexOf('bench|', from);
  while (i !== -1) {
    const end = text.indexOf('|', text.indexOf('|', text.indexOf('|', i + 6) + 1) + 1);
    const parts = text.slice(i + 6, end).split('|');
    const mark = { sender: Number(parts[0]), seq: Number(parts[1]), ts: Number(parts[2]) };
    if (Number.isFinite(mark.ts)) onMark(mark);
    i = text.indexOf('bench|', end === -1 ? i + 6 : end);
  }
}
