// The kit checks itself before the server: a SubscribeResponse / PlayResponse with two EventBatches (field 2
// twice) is legal protobuf, and a decoder keeps only the last; the raw walk must catch it.
import { StreamChecker } from './streams.mjs';

function frame(field, bytes) {
  const len = [];
  let n = bytes.length;
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    len.push(b);
  } while (n);
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...len]), bytes]);
}

export function selfCheck(wire, report) {
  const chat = (seq) => ({ sequence: seq, chat_posted: { name: 'kit', text: `line ${seq}` } });
  const snapshot = wire.encode('Snapshot', { sequence: 4 });
  const one = wire.encode('EventBatch', { events: [chat(5), chat(6)] });
  const two = wire.encode('EventBatch', { events: [chat(7)] });
  for (const typeName of ['SubscribeResponse', 'PlayResponse']) {
    const c = new StreamChecker(wire, `self/${typeName}`, typeName);
    c.process(frame(1, snapshot));
    c.process(frame(2, Buffer.concat([one])));
    const doubled = Buffer.concat([frame(2, one), frame(2, two)]);
    const decoded = wire.decode(typeName, doubled).events?.events ?? [];
    c.process(doubled);
    const caught = c.doubleBatches === 1 && c.lost >= 1;
    report.check(
      `kit self-check (${typeName}): two EventBatches in one message are caught (the decoder kept ${decoded.length} of 3 events)`,
      caught,
      caught ? '' : `doubleBatches ${c.doubleBatches}, lost ${c.lost}, problems ${c.problems.join('; ')}`,
    );
  }
}
