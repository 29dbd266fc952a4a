/**
 * Bounds what clients can make the server hold: open connections per client address, one answer at
 * a time per connection (a pipelined request waits until the answer before it is sent), and answers
 * written in chunks, each waiting for the reader, with a time-out per chunk and one memory budget for
 * all answers waiting on slow readers.
 */
import { createServer, ServerResponse, STATUS_CODES, type IncomingMessage, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../contract/error-codes.js';
import { JSON_CSP } from './errors.js';

/** What one client and all of them may hold. */
export interface ConnectionLimits {
  /** Open connections one client address may hold; one more is answered 503 and closed. 0: no cap. */
  maxConnectionsPerAddress: number;
  /** Longest the reader may take to accept one chunk of an answer before its connection is closed, in ms. */
  writeStallTimeout: number;
  /** Bytes all answers waiting on slow readers may hold together; past it the one waiting longest is cut. */
  slowReaderBytes: number;
  /** Told of each connection refused or closed, with why (metrics). */
  onCut?: (reason: CutReason) => void;
}

/** Why a connection was refused or closed early. */
export type CutReason = 'perAddress' | 'pipelined' | 'stalled' | 'slowReaderBudget';

/** An answer larger than this is written a chunk at a time, each once the reader has taken the one before; a smaller one goes whole (each wait costs a timer and a drain). */
export const ANSWER_CHUNK_BYTES = 512 * 1024;
/** Requests a connection may have waiting behind its current answer; one more closes it (it is not reading). */
export const MAX_PIPELINED = 16;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Waiting {
  bytes: number;
  timer: NodeJS.Timeout;
  onDrain: () => void;
  onClose: () => void;
}

/** The refusal a connection past the per-address cap gets, before it has sent anything. */
function tooManyConnections(): string {
  const body = JSON.stringify(new ServiceError('unavailable', 'too many open connections from this address; retry later').body());
  return (
    `HTTP/1.1 503 ${STATUS_CODES[503]}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
    `X-Content-Type-Options: nosniff\r\nContent-Security-Policy: ${JSON_CSP}\r\nRetry-After: 1\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** The guard of one server: its connection counts and the answers waiting on their readers. */
export class ConnectionGuard {
  private readonly perAddress = new Map<string, number>();
  private readonly refused = new WeakSet<Socket>();
  private readonly queued = new WeakMap<Socket, number>();
  /** In the order they started waiting: the first is the one waiting longest for its reader. */
  private readonly waiting = new Map<ServerResponse, Waiting>();
  private waitingBytes = 0;
  /** Connections refused or closed early, by reason. */
  readonly cut: Record<CutReason, number> = { slowReaderBudget: 0, stalled: 0, pipelined: 0, perAddress: 0 };

  constructor(private readonly limits: ConnectionLimits) {}

  private count(reason: CutReason): void {
    this.cut[reason]++;
    this.limits.onCut?.(reason);
  }

  /** Bytes the answers waiting on slow readers hold now. */
  get heldBytes(): number {
    return this.waitingBytes;
  }

  /** Counts a new connection against its address; past the cap it is answered 503 and closed. */
  onConnection(socket: Socket): void {
    if (this.limits.maxConnectionsPerAddress <= 0) return;
    const address = socket.remoteAddress ?? '';
    const open = this.perAddress.get(address) ?? 0;
    if (open >= this.limits.maxConnectionsPerAddress) {
      this.refused.add(socket);
      this.count('perAddress');
      socket.on('error', () => socket.destroy());
      socket.end(tooManyConnections());
      // A client that never closes its side is not waited for.
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    this.perAddress.set(address, open + 1);
    socket.once('close', () => {
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left <= 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
    });
  }

  /** `handler`, run for a pipelined request only once the answers before it are sent. */
  wrap(handler: Handler): Handler {
    return (req, res) => {
      const socket = req.socket;
      if (this.refused.has(socket) || socket.destroyed) return;
      // Node assigns the socket to a pipelined request's answer when the answer before it finishes.
      if (res.socket !== null) {
        handler(req, res);
        return;
      }
      const depth = (this.queued.get(socket) ?? 0) + 1;
      if (depth > MAX_PIPELINED) {
        this.count('pipelined');
        socket.destroy();
        return;
      }
      this.queued.set(socket, depth);
      res.once('socket', () => {
        this.queued.set(socket, (this.queued.get(socket) ?? 1) - 1);
        handler(req, res);
      });
    };
  }

  /** Writes `body` as the rest of `res` a chunk at a time, each once the reader has taken the one before. */
  writeInChunks(res: ServerResponse, body: Buffer, end: (last: Buffer) => void): void {
    let offset = 0;
    const step = (): void => {
      while (!res.destroyed) {
        const piece = body.subarray(offset, offset + ANSWER_CHUNK_BYTES);
        offset += piece.length;
        if (offset >= body.length) {
          end(piece);
          return;
        }
        if (!res.write(piece)) {
          this.wait(res, body.length, step);
          return;
        }
      }
    };
    step();
  }

  /** Holds `res` until its reader drains the socket, within the stall time-out and the budget of all waiting answers. */
  private wait(res: ServerResponse, bytes: number, resume: () => void): void {
    const onDrain = (): void => {
      if (this.release(res)) resume();
    };
    const onClose = (): void => {
      this.release(res);
    };
    const timer = setTimeout(() => {
      this.count('stalled');
      this.release(res);
      res.destroy();
    }, this.limits.writeStallTimeout);
    timer.unref();
    this.waiting.set(res, { bytes, timer, onDrain, onClose });
    this.waitingBytes += bytes;
    res.once('drain', onDrain);
    res.once('close', onClose);
    // Past the budget, the answers waiting longest (their readers the slowest) are cut first.
    for (const [oldest] of this.waiting) {
      if (this.waitingBytes <= this.limits.slowReaderBytes) break;
      this.count('slowReaderBudget');
      this.release(oldest);
      oldest.destroy();
    }
  }

  /** Forgets a waiting answer; true when it was waiting. */
  private release(res: ServerResponse): boolean {
    const entry = this.waiting.get(res);
    if (entry === undefined) return false;
    this.waiting.delete(res);
    this.waitingBytes -= entry.bytes;
    clearTimeout(entry.timer);
    res.off('drain', entry.onDrain);
    res.off('close', entry.onClose);
    return true;
  }
}

/** An HTTP server whose connections `guard` bounds, answering with `handler`. */
export function guardedServer(options: ServerOptions, handler: Handler, guard: ConnectionGuard): Server {
  /** An answer that writes a large body in chunks through the guard. */
  class GuardedResponse extends ServerResponse {
    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      if (!Buffer.isBuffer(chunk) || chunk.length <= ANSWER_CHUNK_BYTES || this.req.method === 'HEAD') {
        return super.end(chunk as never, encoding as never, callback as never);
      }
      const done = (typeof encoding === 'function' ? encoding : callback) as (() => void) | undefined;
      guard.writeInChunks(this, chunk, (last) => super.end(last, done));
      return this;
    }
  }
  const server = createServer({ ...options, ServerResponse: GuardedResponse }, guard.wrap(handler));
  server.on('connection', (socket: Socket) => guard.onConnection(socket));
  return server;
}
