// Each batch reader hands its packed batches straight to the dataset worker over a channel of
// their own, and the core's thread passes only a reference (a key) with the write: a batch (a
// megabyte and a half) does not stop on the thread that serves the UI on its way from the thread
// that parsed it to the one that writes it (docs/core-cache.md, The worker).
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { CoreError } from '../errors';
import type { BatchRef, PackedRecords } from './worker-messages';

interface Delivery {
  key: number;
  records: PackedRecords;
}

/**
 * The buffers a packed batch moves with (transferred, not copied). Its text is cloned: one copy
 * out and one in cost less than encoding it to bytes and decoding them again.
 */
export const packedBuffers = (records: PackedRecords): ArrayBuffer[] => [
  records.numbers.buffer as ArrayBuffer,
  records.ends.buffer as ArrayBuffer,
];

/** The reader's end: sends a batch and answers its key, or answers the batch when unconnected. */
export class BatchSender {
  private port: MessagePort | null = null;

  connect(port: MessagePort): void {
    this.port?.close();
    this.port = port;
  }

  send(key: number, records: PackedRecords): PackedRecords | BatchRef {
    if (!this.port) return records;
    const delivery: Delivery = { key, records };
    this.port.postMessage(delivery, packedBuffers(records));
    return { key };
  }

  close(): void {
    this.port?.close();
    this.port = null;
  }
}

/** Batches delivered but not yet written (another end's, read ahead); a few at most. */
const STASH_MAX = 8;

/**
 * The dataset worker's end. A batch is always on the channel before its write arrives: the reader
 * posts it before it answers the core, and a post lands in the receiving queue at once; so it is
 * taken synchronously (receiveMessageOnPort), in the write's own turn.
 */
export class BatchReceiver {
  /** One channel per batch reader (a download's two ends each have theirs). */
  private readonly ports = new Map<string, MessagePort>();
  private readonly stash = new Map<number, PackedRecords>();

  /** The channel of reader `from`, replacing the one of its previous start. */
  connect(from: string, port: MessagePort): void {
    this.ports.get(from)?.close();
    this.ports.set(from, port);
  }

  /** The records a write names: given inline, or delivered on the channel under their key. */
  take(records: PackedRecords | BatchRef): PackedRecords {
    if (!('key' in records)) return records;
    const { key } = records;
    const stashed = this.stash.get(key);
    if (stashed) {
      this.stash.delete(key);
      return stashed;
    }
    for (const port of this.ports.values()) {
      for (let message = receiveMessageOnPort(port); message; message = receiveMessageOnPort(port)) {
        const delivery = message.message as Delivery;
        if (delivery.key === key) return delivery.records;
        this.stash.set(delivery.key, delivery.records);
        if (this.stash.size > STASH_MAX) this.stash.delete(this.stash.keys().next().value as number);
      }
    }
    throw new CoreError('INTERNAL', `Batch ${key} of the download never reached the dataset worker.`);
  }

  close(): void {
    for (const port of this.ports.values()) port.close();
    this.ports.clear();
    this.stash.clear();
  }
}
