import crypto from 'node:crypto';
import net from 'node:net';

/**
 * A minimal WebSocket client for the load generator: the HTTP upgrade by hand, then a frame walker that hands each
 * text frame's payload (a view into the received chunk, not a copy) to `onMessage`, answers pings and closes. No
 * extensions, no events per frame, no UTF-8 validation: the generator's single core receives every fan-out
 * delivery of the bench, and the `ws` client spent most of its time on that bookkeeping. The XMPP peers are driven
 * the same way (raw sockets that only look for the benchmark marker), so neither side pays for a full client.
 */

const OP_CONTINUATION = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;

/** A client frame (clients must mask) with a FIN bit. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  if (payload.length > 125) throw new Error('control frames carry at most 125 bytes');
  const mask = crypto.randomBytes(4);
  const out = Buffer.alloc(6 + payload.length);
  out[0] = 0x80 | opcode;
  out[1] = 0x80 | payload.length;
  mask.copy(out, 2);
  for (let i = 0; i < payload.length; i++) out[6 + i] = (payload[i] as number) ^ (mask[i % 4] as number);
  return out;
}

/** Where every socket's reads land (one at a time: each read is walked before the next one). */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

export interface LiteSocketOptions {
  /** `ws://host:port/path?query` */
  url: string;
  localAddress?: string;
  /** Each text or binary frame's payload (a view, valid during the call) and the socket it came on. */
  onMessage(payload: Buffer, socket: LiteSocket): void;
  onClose?(): void;
}

export class LiteSocket {
  private pending: Buffer | undefined;
  private closed = false;
  private readonly closedPromise: Promise<void>;

  private constructor(
    private readonly socket: net.Socket,
    private readonly onMessage: (payload: Buffer, socket: LiteSocket) => void,
    onClose: (() => void) | undefined,
  ) {
    this.closedPromise = new Promise((resolve) =>
      socket.once('close', () => {
        this.closed = true;
        onClose?.();
        resolve();
      }),
    );
  }

  /** Opens the socket and completes the upgrade; rejects on a refused upgrade or a network error. */
  static connect(o: LiteSocketOptions): Promise<LiteSocket> {
    const url = new URL(o.url);
    const key = crypto.randomBytes(16).toString('base64');
    return new Promise((resolve, reject) => {
      let lite: LiteSocket | undefined;
      let head = Buffer.alloc(0);
      const fail = (err: Error) => {
        socket.destroy();
        reject(err);
      };
      /** Bytes before the upgrade completed: the HTTP answer, perhaps followed by the first frames. */
      const upgrade = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) {
          if (head.length > 16_384) fail(new Error('upgrade answer too long'));
          return;
        }
        socket.off('error', fail);
        const status = head.toString('latin1', 0, head.indexOf('\r\n'));
        if (!/^HTTP\/1\.1 101 /.test(status)) {
          fail(new Error(`upgrade refused: ${status}`));
          return;
        }
        const opened = new LiteSocket(socket, o.onMessage, o.onClose);
        lite = opened;
        socket.on('error', () => socket.destroy());
        resolve(opened);
        const rest = head.subarray(end + 4);
        if (rest.length > 0) opened.receive(rest);
      };
      const socket = net.connect({
        host: url.hostname,
        port: Number(url.port),
        ...(o.localAddress ? { localAddress: o.localAddress } : {}),
        // Reads land in one shared buffer and are walked at once: no stream, no 'data' event, no chunk allocated
        // per read (the generator reads once per socket per burst of frames).
        onread: {
          buffer: READ_BUFFER,
          callback(bytes: number, buf: Uint8Array) {
            const chunk = Buffer.from(buf.buffer, buf.byteOffset, bytes);
            if (lite) lite.receive(chunk);
            else upgrade(chunk);
            return true;
          },
        },
      });
      socket.setNoDelay(true);
      socket.once('error', fail);
      socket.once('connect', () =>
        socket.write(
          `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
            `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        ),
      );
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Walks the complete frames of the stream; a partial frame waits (copied) for the next chunk. `chunk` may be a
   * view into {@link READ_BUFFER}, overwritten by the next read.
   */
  private receive(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let off = 0;
    while (buf.length - off >= 2) {
      const b0 = buf[off] as number;
      const b1 = buf[off + 1] as number;
      let len = b1 & 0x7f;
      let at = off + 2;
      if (len === 126) {
        if (buf.length - at < 2) break;
        len = buf.readUInt16BE(at);
        at += 2;
      } else if (len === 127) {
        if (buf.length - at < 8) break;
        len = buf.readUInt32BE(at) * 2 ** 32 + buf.readUInt32BE(at + 4);
        at += 8;
      }
      if (b1 & 0x80) at += 4; // servers do not mask; skip a key if one came anyway
      if (buf.length - at < len) break;
      const payload = buf.subarray(at, at + len);
      off = at + len;
      const opcode = b0 & 0x0f;
      if (opcode === OP_TEXT || opcode === OP_BINARY || opcode === OP_CONTINUATION)
        this.onMessage(payload, this);
      else if (opcode === OP_PING) this.write(clientFrame(0xa, Buffer.from(payload)));
      else if (opcode === OP_CLOSE) {
        this.write(clientFrame(OP_CLOSE, Buffer.from(payload.subarray(0, 2))));
        this.socket.end();
      }
    }
    if (off < buf.length) this.pending = Buffer.from(buf.subarray(off));
  }

  private write(frame: Buffer): void {
    if (!this.closed && this.socket.writable) this.socket.write(frame);
  }

  /** Closes with code 1000 and waits for the server to close (at most 2 s). */
  async close(): Promise<void> {
    if (this.closed) return;
    const code = Buffer.alloc(2);
    code.writeUInt16BE(1000);
    this.write(clientFrame(OP_CLOSE, code));
    const timer = setTimeout(() => this.socket.destroy(), 2000);
    await this.closedPromise;
    clearTimeout(timer);
  }

  /** Drops the connection without a close handshake (a client that vanished). */
  terminate(): void {
    this.socket.destroy();
  }
}
