// One stream of a table (a seat's or a spectator's), over Subscribe or Play, every message checked raw.
import { StreamChecker } from './streams.mjs';

export class SeatStream {
  // kind: 'subscribe' | 'play'; seat: the seat the token names (undefined: a spectator)
  constructor(client, { label, kind, tableId, token = '', fromSequence, seat }) {
    this.client = client;
    this.wire = client.wire;
    this.label = label;
    this.kind = kind;
    this.tableId = tableId;
    this.token = token;
    this.fromSequence = fromSequence;
    this.seat = seat;
    this.checker = new StreamChecker(this.wire, label, kind === 'play' ? 'PlayResponse' : 'SubscribeResponse');
    this.snapshot = null; // the first
    this.lastSnapshot = null;
    this.events = new Map(); // sequence -> {bytes, event}
    this.order = []; // sequences in arrival order (doubles included)
    this.decision = null; // {seq, legal} the latest DecisionRequest (or snapshot decision) for this seat
    this.gameOver = false; // game_ended seen
    this.finishedSnapshot = false; // a snapshot of a finished table seen
    this.results = new Map(); // Play: id -> PlayResult
    this.resultQueue = [];
    this.batches = []; // raw EventBatch bytes, in order
    this.foreignDecisions = [];
    this.timedDecisions = [];
    this.timerExpired = [];
    this.ended = false;
    this.endError = null;
  }

  open() {
    const req = { table_id: this.tableId, token: this.token };
    if (this.fromSequence !== undefined) req.from_sequence = this.fromSequence;
    if (this.kind === 'play') {
      this.q = this.client.bidiStream('Play');
      this.q.write(req);
    } else {
      this.q = this.client.serverStream('Subscribe', req);
    }
    return this;
  }

  // Up a Play stream: a command (and/or anything else PlayRequest carries).
  send(req) {
    this.q.write(req);
  }

  cancel() {
    this.q.cancel();
  }

  // The next message, checked and folded in. Resolves 'message', 'timeout' or 'end'.
  async pump(timeoutMs) {
    const item = await this.q.next(timeoutMs);
    if (item.timeout) return 'timeout';
    if (item.end) {
      this.ended = true;
      this.endError = item.error ?? null;
      return 'end';
    }
    const { snapshot, events, results, raw } = this.checker.process(item.data);
    const at = this.checker.messages; // this message's number on the stream
    if (snapshot) {
      if (!this.snapshot) this.snapshot = snapshot;
      this.lastSnapshot = snapshot;
      if (Number(snapshot.decision_deadline_ms ?? 0) !== 0) this.timedDecisions.push(`snapshot@${Number(snapshot.sequence ?? 0)}`);
      const d = Number(snapshot.decision ?? 0);
      const legal = snapshot.game?.legal_commands ?? [];
      if (d > 0 && legal.length) this.decision = { seq: d, legal, from: 'snapshot' };
      if (snapshot.table?.status === 'TABLE_STATUS_FINISHED') this.finishedSnapshot = true;
    }
    raw.batchBytes.forEach((b) => {
      const first = raw.events.length ? raw.events[0].sequence : 0;
      this.batches.push({ bytes: b, first, seqs: raw.events.map((e) => e.sequence) });
    });
    raw.events.forEach((re, i) => {
      const ev = events[i];
      this.order.push(re.sequence);
      if (!this.events.has(re.sequence)) this.events.set(re.sequence, { bytes: re.bytes, event: ev, at });
    });
    for (const ev of events) {
      const seq = Number(ev.sequence ?? 0);
      if (ev.kind === 'decision_request') {
        const dr = ev.decision_request;
        if (this.seat === undefined || dr.seat !== this.seat) {
          this.foreignDecisions.push(`${seq} (seat ${dr.seat})`);
        } else {
          this.decision = { seq, legal: dr.legal_commands ?? [], from: 'event' };
          if (Number(dr.deadline_ms ?? 0) !== 0) this.timedDecisions.push(seq);
        }
      } else if (ev.kind === 'game_ended') {
        this.gameOver = true;
      } else if (ev.kind === 'timer_expired') {
        this.timerExpired.push(seq);
      }
    }
    for (const r of results) {
      r.at = at;
      this.results.set(Number(r.id ?? 0), r);
      this.resultQueue.push(r);
    }
    return 'message';
  }

  // Pump until pred() or the time is up; resolves true if pred() came true.
  async until(pred, timeoutMs) {
    const end = Date.now() + timeoutMs;
    while (!pred()) {
      const left = end - Date.now();
      if (left <= 0) return false;
      const r = await this.pump(left);
      if (r === 'end') return pred();
    }
    return true;
  }

  // Drain whatever has already arrived (a short wait).
  async drain(ms = 150) {
    for (;;) {
      const r = await this.pump(ms);
      if (r !== 'message') return;
    }
  }
}
