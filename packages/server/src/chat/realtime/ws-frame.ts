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

/**
 * Writes a prepared frame straight to the socket's TCP stream. Only when no extension was negotiated (the server
 * runs without permessage-deflate, so frames are never compressed or queued inside `ws` and order is kept);
 * otherwise it falls back to `socket.send`.
 */
export function sendPrepared(socket: WebSocket, frame: PreparedFrame): void {
  if (socket.readyState !== socket.OPEN) return;
  const raw = (socket as unknown as { _socket?: Duplex })._socket;
  if (socket.extensions !== '' || !raw?.writable) {
    socket.send(frame.json);
    return;
  }
  raw.write(frame.wsFrame);
}
