// The wire, from the .proto alone: the service's methods (proto-loader), our own decoder of every response
// (protobufjs, on the raw bytes), and a walk of the protobuf wire format that counts what a message really holds.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

export { grpc };

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_PROTO = path.resolve(HERE, '../../../protos/tenpennies/v2/tenpennies.proto');
export const SERVICE = 'tenpennies.v2.TenPenniesService';

// grpc status code names by number, and back.
export const CODE = grpc.status;
export const CODE_NAME = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));

const TO_OBJECT = { longs: Number, enums: String, defaults: false, oneofs: true, arrays: true };

export class Wire {
  constructor(protoPath = DEFAULT_PROTO) {
    this.protoPath = protoPath;
    this.pkg = protoLoader.loadSync(protoPath, { keepCase: true, longs: Number, enums: String, defaults: false, oneofs: true });
    this.service = this.pkg[SERVICE];
    this.root = new protobuf.Root();
    this.root.loadSync(protoPath, { keepCase: true });
    this.root.resolveAll();
    this.t = (name) => this.root.lookupType(`tenpennies.v2.${name}`);
    // Event's oneof: field name -> number, and back.
    const ev = this.t('Event');
    this.eventKindByNumber = {};
    this.eventNumberByKind = {};
    for (const f of ev.oneofs.kind.fieldsArray) {
      this.eventKindByNumber[f.id] = f.name;
      this.eventNumberByKind[f.name] = f.id;
    }
  }

  has(method) {
    return Boolean(this.service[method]);
  }

  method(name) {
    const m = this.service[name];
    if (!m) throw new Error(`the .proto has no rpc ${name}`);
    return m;
  }

  decode(typeName, buf) {
    const T = this.t(typeName);
    return T.toObject(T.decode(buf), TO_OBJECT);
  }

  encode(typeName, obj) {
    const T = this.t(typeName);
    return Buffer.from(T.encode(T.fromObject(obj)).finish());
  }

  // One event's kind, from a decoded Event.
  kindOf(ev) {
    return ev.kind;
  }
}

// ---- the raw walk -------------------------------------------------------------------------------------

// Walk one message's top level: for each field number, how often it occurs and the raw bytes of each
// length-delimited occurrence.
export function walk(buf) {
  const r = protobuf.Reader.create(buf);
  const fields = new Map();
  while (r.pos < r.len) {
    const tag = r.uint32();
    const field = tag >>> 3;
    const wt = tag & 7;
    let entry = fields.get(field);
    if (!entry) fields.set(field, (entry = { count: 0, values: [] }));
    entry.count += 1;
    if (wt === 2) {
      entry.values.push(r.bytes());
    } else if (wt === 0) {
      entry.values.push(r.uint64());
    } else {
      r.skipType(wt);
      entry.values.push(null);
    }
  }
  return fields;
}

function longToNumber(v) {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  return v.toNumber ? v.toNumber() : Number(v);
}

// Every event the raw bytes of a SubscribeResponse / PlayResponse hold, in order, whatever a decoder keeps:
// for each occurrence of field 2 (EventBatch), each occurrence of its field 1 (Event): the event's sequence
// (its field 1; the last occurrence, as proto3 reads a scalar), its oneof kind (the field number >= 10) and bytes.
export function rawAnalysis(buf) {
  const top = walk(buf);
  const snapshots = top.get(1)?.count ?? 0;
  const batches = top.get(2)?.values ?? [];
  const events = [];
  const batchBytes = [];
  for (const b of batches) {
    batchBytes.push(Buffer.from(b));
    const inner = walk(b);
    for (const evBytes of inner.get(1)?.values ?? []) {
      const ev = walk(evBytes);
      const seqs = ev.get(1)?.values ?? [];
      const seq = seqs.length ? longToNumber(seqs[seqs.length - 1]) : 0;
      const kinds = [...ev.keys()].filter((k) => k >= 10);
      events.push({ sequence: seq, kinds, bytes: Buffer.from(evBytes) });
    }
  }
  return { snapshots, batchCount: batches.length, events, batchBytes, results: top.get(3)?.count ?? 0, top };
}

// ---- calls --------------------------------------------------------------------------------------------

export class Client {
  constructor(wire, address, { deadlineMs = 10000 } = {}) {
    this.wire = wire;
    this.address = address;
    this.deadlineMs = deadlineMs;
    this.client = new grpc.Client(address, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
    });
  }

  close() {
    this.client.close();
  }

  // A unary call. Resolves {ok: true, value, raw} or {ok: false, code, codeName, details, metadata (trailing, object)}.
  unary(method, request, { deadlineMs } = {}) {
    const m = this.wire.method(method);
    this.calls = (this.calls ?? 0) + 1;
    const respType = m.responseType.type.name;
    return new Promise((resolve) => {
      const deadline = new Date(Date.now() + (deadlineMs ?? this.deadlineMs));
      let raw = null;
      this.client.makeUnaryRequest(
        m.path,
        m.requestSerialize,
        (buf) => {
          raw = buf;
          return this.wire.decode(respType, buf);
        },
        request,
        new grpc.Metadata(),
        { deadline },
        (err, value) => {
          if (err) {
            resolve({
              ok: false,
              code: err.code,
              codeName: CODE_NAME[err.code] ?? String(err.code),
              details: err.details ?? '',
              metadata: metaObject(err.metadata),
            });
          } else {
            resolve({ ok: true, value, raw });
          }
        },
      );
    });
  }

  // A server stream with our own deserializer: every message arrives as its raw Buffer.
  serverStream(method, request, { deadlineMs } = {}) {
    const m = this.wire.method(method);
    this.calls = (this.calls ?? 0) + 1;
    const opts = deadlineMs ? { deadline: new Date(Date.now() + deadlineMs) } : {};
    const call = this.client.makeServerStreamRequest(m.path, m.requestSerialize, (buf) => buf, request, new grpc.Metadata(), opts);
    return new MessageQueue(call);
  }

  // A bidi stream whose requests are raw bytes too (to send what does not parse).
  bidiRaw(method) {
    const m = this.wire.method(method);
    const call = this.client.makeBidiStreamRequest(m.path, (b) => b, (buf) => buf, new grpc.Metadata(), {});
    return new MessageQueue(call);
  }

  bidiStream(method, { deadlineMs } = {}) {
    const m = this.wire.method(method);
    const opts = deadlineMs ? { deadline: new Date(Date.now() + deadlineMs) } : {};
    const call = this.client.makeBidiStreamRequest(m.path, m.requestSerialize, (buf) => buf, new grpc.Metadata(), opts);
    return new MessageQueue(call);
  }
}

export function metaObject(md) {
  if (!md) return {};
  const out = {};
  for (const [k, v] of Object.entries(md.getMap())) out[k] = Buffer.isBuffer(v) ? v.toString() : String(v);
  return out;
}

// The messages of a stream as a queue with a bounded wait: next(ms) resolves the next raw message, or
// {end: true, error} once the stream is over, or {timeout: true}.
export class MessageQueue {
  constructor(call) {
    this.call = call;
    this.items = [];
    this.waiters = [];
    this.ended = false;
    this.error = null;
    this.cancelled = false;
    call.on('data', (buf) => this._push({ data: buf }));
    call.on('error', (err) => {
      this.error = err;
      this._end();
    });
    call.on('end', () => this._end());
    call.on('status', (st) => {
      this.status = st;
    });
  }

  _push(item) {
    const w = this.waiters.shift();
    if (w) w(item);
    else this.items.push(item);
  }

  _end() {
    if (this.ended) return;
    this.ended = true;
    for (const w of this.waiters.splice(0)) w({ end: true, error: this.error });
  }

  next(timeoutMs) {
    if (this.items.length) return Promise.resolve(this.items.shift());
    if (this.ended) return Promise.resolve({ end: true, error: this.error });
    return new Promise((resolve) => {
      let done = false;
      const waiter = (item) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(item);
      };
      const timer = setTimeout(() => {
        if (done) return;
        done = true;
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve({ timeout: true });
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  write(obj) {
    if (!this.ended) this.call.write(obj);
  }

  cancel() {
    this.cancelled = true;
    try {
      this.call.cancel();
    } catch {
      /* already over */
    }
  }

  endWrites() {
    try {
      this.call.end();
    } catch {
      /* already over */
    }
  }
}
