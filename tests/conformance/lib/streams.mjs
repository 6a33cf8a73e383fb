// Every message of a Subscribe or Play stream goes through a StreamChecker: its raw bytes are walked before
// the decoder sees them, and what the decoder kept is compared with what the bytes hold.
import { rawAnalysis } from './wire.mjs';

export class StreamChecker {
  constructor(wire, label, typeName) {
    this.wire = wire;
    this.label = label;
    this.typeName = typeName; // SubscribeResponse or PlayResponse
    this.messages = 0;
    this.events = 0;
    this.lastSequence = 0;
    this.snapshotSequence = null; // the first snapshot's
    this.problems = [];
    this.doubleBatches = 0;
    this.lost = 0;
  }

  problem(text) {
    if (this.problems.length < 8) this.problems.push(`${this.label}: ${text}`);
    else if (this.problems.length === 8) this.problems.push(`${this.label}: ...more`);
  }

  // One raw message: returns {snapshot, events (decoded, in order), results (Play), raw (analysis)}.
  process(buf) {
    this.messages += 1;
    const raw = rawAnalysis(buf);
    if (raw.snapshots > 1) {
      this.doubleBatches += 1;
      this.problem(`message ${this.messages}: field 1 (snapshot) occurs ${raw.snapshots} times: two batches in one message`);
    }
    if (raw.batchCount > 1) {
      this.doubleBatches += 1;
      this.problem(
        `message ${this.messages}: field 2 (events) occurs ${raw.batchCount} times: two batches in one message ` +
          `(raw sequences ${raw.events.map((e) => e.sequence).join(',')})`,
      );
    }
    if (this.typeName === 'SubscribeResponse' && raw.snapshots && raw.batchCount) {
      this.problem(`message ${this.messages}: both oneof members (snapshot and events) on the wire`);
    }
    const msg = this.wire.decode(this.typeName, buf);
    const snapshot = msg.snapshot ?? null;
    const events = msg.events?.events ?? [];
    const results = msg.results ?? [];
    if (this.messages === 1 && !snapshot) this.problem('the first message is not a snapshot');
    if (snapshot && this.snapshotSequence === null) this.snapshotSequence = Number(snapshot.sequence ?? 0);
    // What the decoder kept == what the bytes hold.
    const rawList = raw.events.map((e) => `${e.sequence}:${e.kinds.map((k) => this.wire.eventKindByNumber[k] ?? k).join('+')}`);
    const gotList = events.map((e) => `${Number(e.sequence ?? 0)}:${e.kind ?? ''}`);
    if (rawList.join(' ') !== gotList.join(' ')) {
      const lost = rawList.filter((x) => !gotList.includes(x));
      this.lost += Math.max(lost.length, rawList.length - gotList.length);
      this.problem(
        `message ${this.messages}: the bytes hold ${rawList.length} event(s) [${rawList.join(' ')}], ` +
          `the decoder kept ${gotList.length} [${gotList.join(' ')}]`,
      );
    }
    // History (events at or below the snapshot's sequence) comes in slices of at most 256; a live batch joined
    // for a slow reader has no such bound (the .proto: EventBatch).
    const history = raw.events.filter((e) => this.snapshotSequence !== null && e.sequence <= this.snapshotSequence);
    if (history.length > 256) this.problem(`message ${this.messages}: a history slice of ${history.length} events (the .proto: EventBatch "a slice of history when resuming (at most 256 events each)")`);
    for (const e of raw.events) {
      if (e.kinds.length !== 1) this.problem(`event ${e.sequence}: ${e.kinds.length} kinds set in its oneof`);
    }
    // Sequences strictly increase along the stream, whatever the decoder kept.
    for (const e of raw.events) {
      this.events += 1;
      if (e.sequence <= this.lastSequence) {
        this.problem(`event ${e.sequence} after event ${this.lastSequence}: sequences do not strictly increase`);
      }
      this.lastSequence = Math.max(this.lastSequence, e.sequence);
    }
    return { snapshot, events, results, raw };
  }

  summary() {
    return `${this.messages} messages, ${this.events} events`;
  }
}
