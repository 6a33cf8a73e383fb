// Play one game to the end from one seat, built-in bots in the others: over Play, or over Subscribe +
// SendCommand; beside it a witness stream of the seat and a stream that is cancelled and resumed.
import { SeatStream } from './seat.mjs';
import { CODE, CODE_NAME } from './wire.mjs';
import { rng, short, sleep } from './util.mjs';

const NO_TIMER = { decision_seconds: 0, takeover_seconds: 0 };

export async function setUpTable(client, { name, game, seats, rules, seed, settings = NO_TIMER, joins = ['kit'], bots }) {
  const req = { name, seats, rules, settings, game };
  if (seed !== undefined) req.seed = seed;
  const created = await client.unary('CreateTable', req);
  if (!created.ok) throw new Error(`CreateTable ${short(req)}: ${created.codeName} ${created.details}`);
  const tableId = created.value.table.table_id;
  const hostToken = created.value.host_token;
  const players = [];
  for (const who of joins) {
    const j = await client.unary('JoinTable', { table_id: tableId, name: who });
    if (!j.ok) throw new Error(`JoinTable ${who}: ${j.codeName} ${j.details}`);
    players.push({ name: who, seat: j.value.seat, token: j.value.token });
  }
  for (let i = joins.length; i < (bots === undefined ? seats : joins.length + bots); i += 1) {
    const b = await client.unary('AddBot', { table_id: tableId, host_token: hostToken });
    if (!b.ok) throw new Error(`AddBot: ${b.codeName} ${b.details}`);
  }
  return { tableId, hostToken, players, table: created.value.table };
}

export async function startGame(client, t) {
  const s = await client.unary('StartGame', { table_id: t.tableId, host_token: t.hostToken });
  if (!s.ok) throw new Error(`StartGame: ${s.codeName} ${s.details}`);
  return s.value;
}

// Answer `stream`'s open decision (if not yet answered) by the seat's PRNG. Play: up the stream; subscribe:
// SendCommand. Returns nothing; tallies go to `tally`.
async function answer(client, stream, player, pick, tally, t) {
  const d = stream.decision;
  if (!d || tally.answered.has(d.seq)) return;
  tally.answered.add(d.seq);
  if (!d.legal.length) {
    tally.problems.push(`decision ${d.seq} carries no legal_commands`);
    return;
  }
  const command = d.legal[Math.floor(pick() * d.legal.length)];
  tally.decisions += 1;
  if (stream.kind === 'play') {
    const id = ++tally.nextId;
    tally.pending.set(id, { seq: d.seq, command });
    stream.send({ id, command, decision: d.seq });
  } else {
    const r = await client.unary('SendCommand', { table_id: t.tableId, token: player.token, command, decision: d.seq });
    settle(tally, { seq: d.seq, command }, r.ok ? 0 : r.code, r.ok ? '' : r.details, r.ok ? undefined : r.metadata);
  }
}

function settle(tally, sent, code, message, extra) {
  if (code === 0) tally.accepted += 1;
  else if (code === CODE.ABORTED) tally.stale += 1;
  else tally.problems.push(`a legal command ${short(sent.command, 120)} for decision ${sent.seq} was refused: ${CODE_NAME[code]} ${message} ${extra ? short(extra, 120) : ''}`);
}

function foldResults(stream, tally) {
  while (stream.resultQueue.length) {
    const r = stream.resultQueue.shift();
    const id = Number(r.id ?? 0);
    const sent = tally.pending.get(id);
    if (!sent) {
      tally.problems.push(`a PlayResult for id ${id}, which the kit never sent`);
      continue;
    }
    tally.pending.delete(id);
    settle(tally, sent, r.code ?? 0, r.message ?? '', r.rule ? { rule: r.rule } : undefined);
  }
}

// The stream that is cancelled and resumed: it runs until the game ends (or `deadline`), cancelling its
// stream after a random few messages, `resumes` times, each time resuming after the last event it had.
async function resumer(client, t, player, { resumes, pick, deadline, label, stallMs }) {
  const out = { connections: [], problems: [], received: new Map(), doubled: [], cancels: 0, firstSnapshot: null };
  let from;
  let last = 0;
  for (let c = 0; Date.now() < deadline; c += 1) {
    const s = new SeatStream(client, { label: `${label}/resume#${c}`, kind: 'subscribe', tableId: t.tableId, token: player.token, seat: player.seat, fromSequence: from }).open();
    out.connections.push(s);
    const budget = c < resumes ? 2 + Math.floor(pick() * 8) : Infinity;
    let n = 0;
    let stop = false;
    while (Date.now() < deadline) {
      const r = await s.pump(Math.max(1, Math.min(s.finishedSnapshot ? 2000 : stallMs, deadline - Date.now())));
      if (r === 'timeout') {
        if (!s.snapshot) out.problems.push(`${s.label}: no snapshot within ${stallMs} ms`);
        else out.problems.push(`${s.label}: nothing for ${stallMs} ms${s.finishedSnapshot ? ' after the snapshot of the finished table (no game_ended in the resumed history)' : ''}`);
        stop = true;
        break;
      }
      if (r === 'end') {
        out.problems.push(`${s.label}: the stream ended before the game did (${s.endError ? `${CODE_NAME[s.endError.code]} ${s.endError.details}` : 'OK'})`);
        stop = true;
        break;
      }
      n += 1;
      if (c === 0 && s.snapshot && out.firstSnapshot === null) out.firstSnapshot = Number(s.snapshot.sequence ?? 0);
      if (s.gameOver) break;
      if (n >= budget) break;
    }
    // What this connection brought: every event, each once across all connections.
    for (const seq of s.order) {
      if (out.received.has(seq)) out.doubled.push(seq);
      else out.received.set(seq, s.events.get(seq).bytes);
      last = Math.max(last, seq);
    }
    for (const p of s.checker.problems) out.problems.push(p);
    if (s.gameOver || stop) {
      s.cancel();
      break;
    }
    s.cancel();
    out.cancels += 1;
    from = Math.max(last, 0);
    // A resume names the last event received; with none yet, the snapshot's sequence.
    if (last === 0 && s.snapshot) from = Number(s.snapshot.sequence ?? 0);
    await sleep(Math.floor(pick() * 30));
  }
  return out;
}

// After GameEnded: read on for `ms`, noting the kinds of later events and whether the server ended the stream.
async function afterEnd(s, ms) {
  const end = Date.now() + ms;
  const seen = s.order.length;
  for (;;) {
    const left = end - Date.now();
    if (left <= 0) break;
    const r = await s.pump(left);
    if (r === 'end') {
      if (!s.q.cancelled) s.endedAfterGame = true;
      break;
    }
    if (r === 'timeout') break;
  }
  const endedAt = [...s.events.entries()].find(([, v]) => v.event?.kind === 'game_ended')?.[0] ?? Infinity;
  s.afterGame = [...s.events.entries()].filter(([q]) => q > endedAt).map(([, v]) => v.event?.kind);
  return seen;
}

// Plays one game. Returns {ok, tableId, token, seat, record?, lines: [[name, ok, details]]}.
export async function playGame(client, opts) {
  const { label, game, rules, seats, path, rngSeed, seed, resumes = 4, stallMs = 20000, gameMs = 100000, witness = true } = opts;
  const lines = [];
  const check = (name, ok, details) => lines.push([`${label}: ${name}`, ok, details]);
  const started = Date.now();
  const pick = rng(rngSeed);
  const pickResume = rng(rngSeed ^ 0x5eed);
  let t;
  try {
    t = await setUpTable(client, { name: `kit ${label}`, game, seats, rules, seed });
  } catch (e) {
    check('table set up', false, e.message);
    return { ok: false, lines };
  }
  const player = t.players[0];
  // "TableInfo.rules holds the table's own game's" (every knob as it plays): HouseRules' `game` oneof is set,
  // to the table's game.
  {
    const r = t.table.rules ?? {};
    const want = game || 'ten_pennies';
    const ok = r.game === want && r[want] !== undefined;
    check(`TableInfo.rules holds ${want}'s rules alone`, ok, ok ? `rules.${want} ${short(r[want], 160)}` : `rules ${short(r, 200)}; game "${t.table.game}"`);
  }
  const streams = [];
  const main = new SeatStream(client, { label: `${label}/${path}`, kind: path, tableId: t.tableId, token: player.token, seat: player.seat }).open();
  streams.push(main);
  let wit = null;
  if (witness) {
    wit = new SeatStream(client, { label: `${label}/witness`, kind: 'subscribe', tableId: t.tableId, token: player.token, seat: player.seat }).open();
    streams.push(wit);
  }
  // A spectator (no token) beside them.
  const spec = witness ? new SeatStream(client, { label: `${label}/spectator`, kind: 'subscribe', tableId: t.tableId }).open() : null;
  if (spec) streams.push(spec);
  for (const s of streams) {
    if (!(await s.until(() => s.snapshot, stallMs))) {
      check('first message is a snapshot', false, `${s.label}: no snapshot within ${stallMs} ms (${s.ended ? `ended: ${s.endError?.details}` : 'open'})`);
      for (const x of streams) x.cancel();
      return { ok: false, lines, tableId: t.tableId };
    }
  }
  const deadline = Date.now() + gameMs;
  const resumeRun = resumes > 0 ? resumer(client, t, player, { resumes, pick: pickResume, deadline, label, stallMs }) : null;
  // Let the resumer's first connection take its snapshot before the game starts.
  await sleep(100);
  try {
    await startGame(client, t);
  } catch (e) {
    check('StartGame', false, e.message);
    for (const x of streams) x.cancel();
    return { ok: false, lines, tableId: t.tableId };
  }
  const tally = { answered: new Set(), decisions: 0, accepted: 0, stale: 0, problems: [], pending: new Map(), nextId: 0 };
  let stalled = null;
  // The witness and the spectator read alongside, so that their queues never wait on us; once GameEnded
  // has come, a little longer: the stream stays open, and no event of the game comes after GameEnded.
  const follow = (s) =>
    (async () => {
      while (!s.gameOver && Date.now() < deadline + 5000) {
        const r = await s.pump(Math.max(1, Math.min(stallMs, deadline + 5000 - Date.now())));
        if (r !== 'message') return;
      }
      await afterEnd(s, 400);
    })();
  const witRun = wit ? follow(wit) : null;
  const specRun = spec ? follow(spec) : null;
  while (!main.gameOver) {
    if (Date.now() > deadline) {
      stalled = `the game did not end within ${gameMs} ms (last sequence ${main.checker.lastSequence})`;
      break;
    }
    await answer(client, main, player, pick, tally, t);
    const r = await main.pump(Math.min(stallMs, Math.max(1, deadline - Date.now())));
    foldResults(main, tally);
    if (r === 'timeout') {
      const d = main.decision;
      stalled =
        `stalled: no message for ${stallMs} ms with no timer; last sequence ${main.checker.lastSequence}; ` +
        (d ? `last decision ${d.seq} ${tally.answered.has(d.seq) ? 'answered, no next DecisionRequest came' : 'unanswered'}` : 'no DecisionRequest ever came');
      break;
    }
    if (r === 'end') {
      stalled = `the ${path} stream ended before the game: ${main.endError ? `${CODE_NAME[main.endError.code]} ${main.endError.details}` : 'OK'}`;
      break;
    }
  }
  // Play: the results of commands still in flight.
  if (path === 'play' && tally.pending.size) {
    await main.until(() => (foldResults(main, tally), tally.pending.size === 0), 3000);
    foldResults(main, tally);
    if (tally.pending.size) tally.problems.push(`${tally.pending.size} command(s) up the Play stream got no PlayResult`);
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  check(
    `plays to the end over ${path === 'play' ? 'Play' : 'Subscribe + SendCommand'}`,
    !stalled && main.gameOver && tally.problems.length === 0,
    stalled ??
      (tally.problems.length
        ? tally.problems.slice(0, 4).join('; ')
        : `${tally.decisions} decisions answered (${tally.accepted} accepted, ${tally.stale} stale: ABORTED), ${main.checker.events} events, ${secs} s`),
  );
  // Play: half-closing the request side ends no stream.
  if (path === 'play' && main.gameOver) {
    main.q.endWrites();
    await afterEnd(main, 400);
  }
  main.cancel();
  if (witRun) await witRun;
  if (specRun) await specRun;
  const res = resumeRun ? await resumeRun : null;
  if (wit) wit.cancel();
  if (spec) spec.cancel();
  for (const s of [main, wit, spec].filter(Boolean)) {
    if (!s.gameOver) continue;
    const late = s.afterGame ?? [];
    const notTable = late.filter((k) => k !== 'seat_changed' && k !== 'chat_posted');
    check(
      `${s.label.split('/').pop()} stream after GameEnded: stays open${s === main && path === 'play' ? ' (also after a half-close)' : ''}, and GameEnded is the game's last event`,
      !s.endedAfterGame && notTable.length === 0,
      (s.endedAfterGame ? `the server ended it: ${s.endError ? `${CODE_NAME[s.endError.code]} ${s.endError.details}` : 'OK'}` : 'open 400 ms on') +
        (notTable.length ? `; game events after GameEnded: ${notTable.join(', ')}` : '') + (late.length ? `; ${late.length} later event(s)` : ''),
    );
  }
  if (spec) {
    const g = spec.snapshot?.game;
    const leaks = [];
    if (g && (g.seat !== undefined || (g.hand ?? []).length || (g.legal_commands ?? []).length)) leaks.push('its snapshot has a seat, hand or legal commands');
    if (spec.foreignDecisions.length) leaks.push(`DecisionRequests: ${spec.foreignDecisions.slice(0, 3)}`);
    const own = [...spec.events.values()].filter((v) => v.event?.kind === 'cards_received' || v.event?.kind === 'thirty_one_cards_received')
      .filter((v) => ((v.event.cards_received ?? v.event.thirty_one_cards_received).cards ?? []).some((c) => c.id !== undefined));
    if (own.length) leaks.push(`private cards at ${own.slice(0, 3).map((v) => Number(v.event.sequence))}`);
    check('a spectator sees no seat, hand, DecisionRequest or dealt card, and GameEnded', leaks.length === 0 && spec.gameOver, leaks.length ? leaks.join('; ') : `${spec.events.size} events${spec.gameOver ? '' : '; no GameEnded'}`);
  }
  // A stream opened on the finished table, resuming from the witness's first snapshot: the snapshot
  // (the game over), then the whole game's history, the same bytes as the witness had them live.
  if (wit && main.gameOver && wit.gameOver) {
    const from = Number(wit.snapshot.sequence ?? 0);
    const h = new SeatStream(client, { label: `${label}/history`, kind: 'subscribe', tableId: t.tableId, token: player.token, seat: player.seat, fromSequence: from }).open();
    await h.until(() => h.gameOver, 5000);
    h.cancel();
    const endSeq = [...wit.events.entries()].find(([, v]) => v.event?.kind === 'game_ended')?.[0] ?? wit.checker.lastSequence;
    const want = [...wit.events.keys()].filter((q) => q > from && q <= endSeq);
    const missing = want.filter((q) => !h.events.has(q));
    const differ = want.filter((q) => h.events.has(q) && !h.events.get(q).bytes.equals(wit.events.get(q).bytes));
    // The phase is the game's own view's (GameView's `game` oneof).
    const view = h.snapshot?.game ?? {};
    const phase = view.game ? view[view.game]?.phase : undefined;
    const over = phase === 'PHASE_GAME_OVER' || phase === 'THIRTY_ONE_PHASE_GAME_OVER';
    check(
      `a stream opened on the finished table: snapshot at game over, then the game's history as it was sent live`,
      over && missing.length === 0 && differ.length === 0 && h.checker.problems.length === 0,
      `phase ${phase}; ${want.length} events from ${from}` + (missing.length ? `; missing ${missing.slice(0, 8)}` : '') +
        (differ.length ? `; bytes differ at ${differ.slice(0, 8)}` : '') + (h.checker.problems.length ? `; ${h.checker.problems.slice(0, 2).join('; ')}` : ''),
    );
    // The view and GameEnded carry the table's game's own part (their `game` oneof), one entry a seat where
    // the .proto says "each seat" (TenPenniesEnd.shares, ThirtyOneEnd.players).
    const own = game || 'ten_pennies';
    const ended = [...wit.events.values()].find((v) => v.event?.kind === 'game_ended')?.event?.game_ended ?? {};
    const perSeat = { ten_pennies: 'shares', thirty_one: 'players' }[own];
    const endSeats = (ended[own]?.[perSeat] ?? []).length;
    check(
      `the finished view and GameEnded are ${own}'s (view.${own}, GameEnded.${own}.${perSeat} for each seat)`,
      view.game === own && ended.game === own && endSeats === seats && (ended.scores ?? []).length === seats,
      `view.game ${view.game}, GameEnded.game ${ended.game}, ${endSeats} ${perSeat}, ${(ended.scores ?? []).length} scores, ${seats} seats`,
    );
  }

  // Play: "a command's result comes in the same message as the events it caused": no event at or below an
  // accepted result's sequence arrives in a later message than the result.
  if (path === 'play') {
    const late = [];
    let n = 0;
    for (const r of main.results.values()) {
      if ((r.code ?? 0) !== 0) continue;
      n += 1;
      const S = Number(r.sequence ?? 0);
      for (const [q, v] of main.events) if (q <= S && v.at > r.at) late.push(`${q} after result ${r.id} (sequence ${S})`);
    }
    check('each PlayResult comes no earlier than the events its command caused', late.length === 0, late.length ? late.slice(0, 4).join('; ') : `${n} accepted results`);
  }
  // Raw bytes of every stream.
  const all = [...streams, ...(res ? res.connections : [])];
  const rawProblems = all.flatMap((s) => s.checker.problems);
  const msgs = all.reduce((a, s) => a + s.checker.messages, 0);
  const evs = all.reduce((a, s) => a + s.checker.events, 0);
  check(
    'stream bytes: one batch per message, every event on the wire decoded, sequences strictly increasing',
    rawProblems.length === 0,
    rawProblems.length ? rawProblems.slice(0, 5).join('; ') : `${all.length} streams, ${msgs} messages, ${evs} events`,
  );
  const foreign = all.flatMap((s) => s.foreignDecisions.map((x) => `${s.label}: ${x}`));
  const timed = all.flatMap((s) => s.timedDecisions);
  const expired = all.flatMap((s) => s.timerExpired);
  check(
    'DecisionRequests only for the stream\'s seat; with decision_seconds 0 every deadline_ms and decision_deadline_ms 0, no TimerExpired',
    foreign.length === 0 && timed.length === 0 && expired.length === 0,
    foreign.length || timed.length || expired.length
      ? `another seat's DecisionRequest: [${foreign.slice(0, 3).join(', ')}]; deadline set on: [${timed.slice(0, 5)}]; TimerExpired at: [${expired.slice(0, 5)}]`
      : '',
  );
  // The witness: an uninterrupted stream of the seat.
  if (wit) {
    const wseqs = [...wit.events.keys()];
    const mainFrom = Math.max(Number(main.snapshot?.sequence ?? 0), Number(wit.snapshot?.sequence ?? 0));
    const missed = wseqs.filter((s) => s > mainFrom && !main.events.has(s));
    const extra = [...main.events.keys()].filter((s) => s > mainFrom && !wit.events.has(s) && s <= wit.checker.lastSequence);
    const differ = wseqs.filter((s) => main.events.has(s) && !main.events.get(s).bytes.equals(wit.events.get(s).bytes));
    check(
      `the ${path} stream's events == the witness's (same bytes)`,
      missed.length === 0 && extra.length === 0 && differ.length === 0 && wit.gameOver,
      `${wseqs.length} witness events` +
        (missed.length ? `; missing from the ${path} stream: ${missed.slice(0, 8)}` : '') +
        (extra.length ? `; only on the ${path} stream: ${extra.slice(0, 8)}` : '') +
        (differ.length ? `; bytes differ at: ${differ.slice(0, 8)}` : '') +
        (wit.gameOver ? '' : '; the witness never saw game_ended'),
    );
    if (path === 'play') {
      // "one change's batch is the same bytes on both kinds of stream"
      // Batches a slow reader's stream joined ("several changes waiting for a slow reader are joined into one
      // batch") differ in their cut, not in their events: such a batch is whole batches of the other stream.
      const wb = new Set(wit.batches.map((b) => b.bytes.toString('base64')));
      const witBatchOf = new Map();
      wit.batches.forEach((b, i) => b.seqs.forEach((q) => witBatchOf.set(q, i)));
      let joined = 0;
      const cut = [];
      for (const b of main.batches.filter((x) => x.first > mainFrom)) {
        if (wb.has(b.bytes.toString('base64'))) continue;
        const idx = new Set(b.seqs.map((q) => witBatchOf.get(q)));
        const wholeHere = [...idx].every((i) => i !== undefined && wit.batches[i].seqs.every((q) => b.seqs.includes(q)));
        const insideOne = idx.size === 1 && [...idx][0] !== undefined;
        if (wholeHere || insideOne) joined += 1;
        else cut.push(b.seqs.join(','));
      }
      check(
        'Play\'s EventBatches are the same bytes as Subscribe\'s (or whole batches joined for a slow reader)',
        cut.length === 0,
        `${main.batches.length} batches${joined ? `, ${joined} joined differently` : ''}${cut.length ? `; batches cut across changes: [${cut.slice(0, 4).join('] [')}]` : ''}`,
      );
    }
    if (res) {
      const from = Math.max(res.firstSnapshot ?? 0, Number(wit.snapshot?.sequence ?? 0));
      const witAfter = wseqs.filter((s) => s > from);
      const missedR = witAfter.filter((s) => !res.received.has(s));
      const extraR = [...res.received.keys()].filter((s) => s > from && !wit.events.has(s));
      const differR = witAfter.filter((s) => res.received.has(s) && !res.received.get(s).equals(wit.events.get(s).bytes));
      const ok = res.problems.length === 0 && res.doubled.length === 0 && missedR.length === 0 && extraR.length === 0 && differR.length === 0;
      check(
        `resumed ${res.cancels} times with from_sequence: events == the witness's`,
        ok && res.cancels > 0,
        `${missedR.length} missed, ${res.doubled.length} doubled, ${witAfter.length} compared` +
          (missedR.length ? ` (missed: ${missedR.slice(0, 8)})` : '') +
          (res.doubled.length ? ` (doubled: ${res.doubled.slice(0, 8)})` : '') +
          (extraR.length ? `; not on the witness: ${extraR.slice(0, 8)}` : '') +
          (differR.length ? `; bytes differ at ${differR.slice(0, 8)}` : '') +
          (res.problems.length ? `; ${res.problems.slice(0, 3).join('; ')}` : '') +
          (res.cancels ? '' : '; the game ended before any cancel'),
      );
    }
  }
  // The record of the finished game.
  let record = null;
  if (main.gameOver) {
    const g = await client.unary('GetGameRecord', { table_id: t.tableId, token: player.token });
    if (g.ok) {
      record = g.value.record;
      const wantGame = game || 'ten_pennies';
      check(
        'GetGameRecord of the finished game',
        record.status === 'TABLE_STATUS_FINISHED' && record.game === wantGame && (record.commands ?? []).length > 0,
        `status ${record.status}, game "${record.game}", ${(record.commands ?? []).length} commands${seed !== undefined ? `, seed ${record.seed}` : ''}`,
      );
    } else {
      check('GetGameRecord of the finished game', false, `${g.codeName} ${g.details}`);
    }
  }
  return { ok: !stalled, tableId: t.tableId, token: player.token, seat: player.seat, record, lines, hostToken: t.hostToken };
}
