import type { Duplex } from 'node:stream';
import * as ws from 'ws';
import type { WebSocket } from 'ws';

interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}

/** `ws`'s own frame encoder (`Sender.frame`: exported by `ws`, missing from its type declarations). */
const encodeFrame = (ws as unknown as { Sender: { frame(data: Buffer, o: FrameOptions): Buffer[] } }).Sender
  .frame;

/**
 * One event's JSON, framed for WebSocket once however many sockets it goes to (the profile showed `ws` framing the
 * same event again for every socket).
 */
export class PreparedFrame {
  private wire: Buffer | undefined;

  constructor(readonly json: string) {}

  /** A final, unmasked, uncompressed text frame (server to client). */
  get wsFrame(): Buffer {
    this.wire ??= Buffer.concat(
      encodeFrame(Buffer.from(this.json), { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }),
    );
    return this.wire;
  }
}

/** TCP streams corked by {@link sendPrepared} in this event-loop turn; uncorked together once it ends. */
const corked = new Set<Duplex>();

function uncorkAll(): void {
  for (const raw of corked) raw.uncork();
  corked.clear();
}

/**
 * Writes a prepared frame straight to the socket's TCP stream. Only when no extension was negotiated (the server
 * runs without permessage-deflate, so frames are never compressed or queued inside `ws`); otherwise it falls back
 * to `socket.send`.
 *
 * The stream is corked until the end of the event-loop turn (`setImmediate`, after the I/O callbacks of the turn),
 * so every frame a socket gets in one turn — under load, several events fanned out back to back — leaves in one
 * system call, and the client reads them in one. Order is kept: `ws`'s own frames (`socket.send`, pings, close)
 * go through the same corked stream in the order they are written.
 */
export function sendPrepared(socket: WebSocket, frame: PreparedFrame): void {
  if (socket.readyState !== socket.OPEN) return;
  const raw = (socket as unknown as { _socket?: Duplex })._socket;
  if (socket.extensions !== '' || !raw?.writable) {
    socket.send(frame.json);
    return;
  }
  if (!corked.has(raw)) {
    if (corked.size === 0) setImmediate(uncorkAll);
    corked.add(raw);
    raw.cork();
  }
  raw.write(frame.wsFrame);
}
