// A seeded PRNG (mulberry32), sleeps, and the kit's report.

export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    }),
  ]);
}

export class Report {
  constructor() {
    this.passed = 0;
    this.failed = 0;
    this.skipped = 0;
    this.lines = [];
  }

  check(name, ok, details = '') {
    if (ok) this.passed += 1;
    else this.failed += 1;
    const line = `${ok ? 'PASS' : 'FAIL'} ${name}${details ? ` — ${details}` : ''}`;
    this.lines.push(line);
    console.log(line);
    return ok;
  }

  skip(name, why) {
    this.skipped += 1;
    const line = `SKIP ${name} — ${why}`;
    this.lines.push(line);
    console.log(line);
  }

  note(text) {
    console.log(`NOTE ${text}`);
  }
}

export function short(obj, max = 300) {
  const s = typeof obj === 'string' ? obj : JSON.stringify(obj);
  return s.length > max ? `${s.slice(0, max)}...` : s;
}
