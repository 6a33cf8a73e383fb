#!/usr/bin/env node
// The conformance kit: a bot and a checker written from protos/tenpennies/v2/tenpennies.proto alone.
//
//   node tests/conformance/kit.mjs --server host:port [--seeds] [--proto PATH] [--only games,seeds,bad]
//
// Plaintext gRPC. One line per check (PASS/FAIL), then "N passed, N failed"; exit 0 only if none failed.
import { Client, Wire, DEFAULT_PROTO } from './lib/wire.mjs';
import { playGame } from './lib/games.mjs';
import { badInputs } from './lib/bad.mjs';
import { selfCheck } from './lib/selfcheck.mjs';
import { Report, withTimeout } from './lib/util.mjs';

const TP_RULES = { ten_pennies: { rounds: [1, 2] } };

// Every game the kit plays: Ten Pennies (a short game) and Thirty-One's classic, switch and banking.
export const GAMES = [
  { key: 'tp', game: 'ten_pennies', seats: 3, rules: TP_RULES },
  { key: 't31-classic', game: 'thirty_one', seats: 3, rules: { thirty_one: { preset: 'THIRTY_ONE_PRESET_CLASSIC', lives: 2 } } },
  { key: 't31-switch', game: 'thirty_one', seats: 3, rules: { thirty_one: { preset: 'THIRTY_ONE_PRESET_SWITCH', lives: 2 } } },
  { key: 't31-banking', game: 'thirty_one', seats: 3, rules: { thirty_one: { preset: 'THIRTY_ONE_PRESET_BANKING', deals: 3 } } },
];

function parseArgs(argv) {
  const args = { server: null, seeds: false, proto: DEFAULT_PROTO, only: null, verbose: false };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--server') args.server = argv[++i];
    else if (a.startsWith('--server=')) args.server = a.slice(9);
    else if (a === '--seeds') args.seeds = true;
    else if (a === '--proto') args.proto = argv[++i];
    else if (a === '--only') args.only = new Set(argv[++i].split(','));
    else if (a === '--help' || a === '-h') args.help = true;
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

const report = new Report();

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help || !args.server) {
    console.log('usage: node tests/conformance/kit.mjs --server host:port [--seeds] [--proto PATH] [--only games,seeds,bad]');
    process.exit(args.help ? 0 : 2);
  }
  const started = Date.now();
  const wire = new Wire(args.proto);
  const client = new Client(wire, args.server);
  const want = (part) => !args.only || args.only.has(part);
  selfCheck(wire, report);

  // The server answers at all.
  const hello = await client.unary('ListTables', {}, { deadlineMs: 5000 });
  if (!report.check('ListTables answers', hello.ok, hello.ok ? `${(hello.value.tables ?? []).length} tables` : `${hello.codeName} ${hello.details}`)) {
    finish(report, started, client);
    return;
  }

  if (want('games')) {
    // Both paths of every game, all at once (each waits on the server, not on the CPU).
    const runs = [];
    GAMES.forEach((g, i) => {
      for (const path of ['play', 'subscribe']) {
        runs.push(
          playGame(client, { label: `${g.key}/${path}`, game: g.game, seats: g.seats, rules: g.rules, path, rngSeed: 1000 + i * 10 + (path === 'play' ? 1 : 2) }),
        );
      }
    });
    for (const r of await Promise.all(runs)) for (const [name, ok, details] of r.lines) report.check(name, ok, details);
  }

  if (want('seeds')) {
    if (!args.seeds) {
      report.skip('same seeded game on both paths', 'needs --seeds (a server started with --allow-seeds)');
    } else {
      for (const g of GAMES) {
        const seed = 4242;
        const rngSeed = 77;
        const [a, b] = await Promise.all(
          ['play', 'subscribe'].map((path) =>
            playGame(client, { label: `seeded ${g.key}/${path}`, game: g.game, seats: g.seats, rules: g.rules, path, rngSeed, seed, resumes: 0, witness: false }),
          ),
        );
        for (const [name, ok, details] of [...a.lines, ...b.lines]) if (!ok) report.check(name, ok, details);
        const ca = a.record?.commands ?? null;
        const cb = b.record?.commands ?? null;
        let firstDiff = -1;
        if (ca && cb) for (let i = 0; i < Math.max(ca.length, cb.length); i += 1) if (ca[i] !== cb[i]) { firstDiff = i; break; }
        report.check(
          `seeded ${g.key}: the same seed and choices give the same game on Play and on Subscribe + SendCommand`,
          Boolean(ca && cb) && firstDiff === -1 && Number(a.record.seed) === seed && Number(b.record.seed) === seed,
          !ca || !cb
            ? 'no record to compare'
            : firstDiff === -1
              ? `${ca.length} commands equal, seed ${a.record.seed}`
              : `commands differ at ${firstDiff}: "${ca[firstDiff]}" vs "${cb[firstDiff]}" (${ca.length} vs ${cb.length} commands)`,
        );
      }
    }
  }

  if (want('bad')) {
    try {
      await withTimeout(badInputs(client, report, { seeds: args.seeds }), 90000, 'the bad-input table');
    } catch (e) {
      report.check('bad-input table ran to its end', false, e.stack ?? String(e));
    }
  }
  finish(report, started, client);
}

function finish(_report, started, client) {
  console.log(`kit ran ${((Date.now() - started) / 1000).toFixed(1)} s, ${client.calls ?? 0} calls and streams opened`);
  console.log(`${report.passed} passed, ${report.failed} failed`);
  try {
    client.close();
  } catch {
    /* closed */
  }
  process.exit(report.failed === 0 && report.passed > 0 ? 0 : 1);
}

// The whole kit is bounded: past 170 s it stops, failing.
const guard = setTimeout(() => {
  report.check('the kit ends within 170 s', false, 'it ran past 170 s and was stopped');
  console.log(`${report.passed} passed, ${report.failed} failed`);
  process.exit(1);
}, 170000);
guard.unref();

main().catch((e) => {
  report.check('the kit runs to its end', false, `it crashed: ${e.stack ?? e}`);
  console.log(`${report.passed} passed, ${report.failed} failed`);
  process.exit(1);
});
