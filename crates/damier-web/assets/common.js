// Shared by every page: the state in the link, the API calls, a seeded generator, keyboard grids.
// (The head and the navigation are the server's one template: crates/damier-web/src/assets.rs.)

import { number, plural } from './number.js';

/**
 * The page's state as its link gave it (the query string, read once on load): a link with the
 * problem, the size, the seed and the position reproduces the board.
 */
export const linked = new URLSearchParams(location.search);

/** Sets each input (by id) from the link's key of the same name, where the link has one. */
export function fromLink(ids) {
  for (const id of ids) {
    if (linked.has(id)) document.getElementById(id).value = linked.get(id);
  }
}

/**
 * Writes `state` (key → value; empty, null and undefined left out) as the page's query string,
 * so that the address bar always holds a link to what is on the page; the browser's history
 * gets no entry. An unchanged link is left alone (replacing it costs the browser milliseconds:
 * a quarter of a Lights Out hint's time at 20 x 20).
 */
export function toLink(state) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(state)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const query = q.toString();
  if (location.search === (query ? `?${query}` : '')) return;
  history.replaceState(null, '', query ? `${location.pathname}?${query}` : location.pathname);
}

/**
 * Steps a live run to the link's update count (`steps`), at most 10^7 updates a request (the
 * server's bound): advance(k) steps it, at() gives { steps, over } of the run now (over: it
 * stopped on its own), or null.
 */
export async function toLinkedSteps(advance, at) {
  const target = Number(linked.get('steps'));
  if (!Number.isSafeInteger(target) || target <= 0) return;
  for (;;) {
    const now = at();
    if (!now || now.over || now.steps >= target) return;
    await advance(Math.min(target - now.steps, 10_000_000));
    if (at()?.steps === now.steps) return;
  }
}

/**
 * The lab without a server (the exported static site): the pages carry
 * <meta name="damier-local">, and every call below is answered by the library compiled to
 * WebAssembly in a Web Worker (local.js) instead of the server, with the same answers.
 */
const local = document.querySelector('meta[name="damier-local"]') ? await import('./local.js') : null;

/** Whether this page runs without a server (the static site). */
export const serverless = local !== null;

/** The server's answer `{ status, exit, body }` as a call's result, or its ApiError. */
function outcome(a) {
  if (a.status !== 200) throw new ApiError(a.body?.error || 'failed', a.status);
  return { data: a.body, exit: a.exit };
}

/** An API error: the server's one-line message and the HTTP status. */
export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

/**
 * POST /api/<path> with `body` (the command's options, named as on the command line).
 * Resolves to { data, exit } (exit 1 is a "no" answer); rejects with ApiError.
 */
export async function api(path, body = {}, signal) {
  if (local) return outcome(await local.call(path, body, null, signal));
  const r = await fetch(`/api/${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal,
  });
  const data = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new ApiError(data.error || r.statusText, r.status);
  return { data, exit: Number(r.headers.get('x-damier-exit') || 0) };
}

/**
 * The same call as a stream of server-sent events: onProgress({label, done, total}) while it
 * runs; resolves to { data, exit }. Aborting `signal` cancels the job on the server.
 */
export async function stream(path, body, onProgress, signal) {
  if (local) return outcome(await local.call(path, body, onProgress, signal));
  const r = await fetch(`/api/${path}?stream`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal,
  });
  if (!r.ok) {
    const data = await r.json().catch(() => ({ error: r.statusText }));
    throw new ApiError(data.error || r.statusText, r.status);
  }
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  // Where the search for the end of an event resumes: a result of megabytes arrives in many
  // reads, and each is searched once, not the whole buffer again.
  let scanned = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n', scanned)) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      scanned = 0;
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (!data.length) continue;
      const payload = JSON.parse(data.join('\n'));
      if (event === 'progress') onProgress(payload);
      if (event === 'result') {
        if (payload.status !== 200) throw new ApiError(payload.body?.error || 'failed', payload.status);
        return { data: payload.body, exit: payload.exit };
      }
    }
    scanned = Math.max(0, buffer.length - 1);
  }
  throw new ApiError('the stream ended without a result', 0);
}

/** A small seeded generator (xorshift64*), so a page's random start can be replayed. */
export function rng(seed) {
  let s = BigInt.asUintN(64, BigInt(seed) ^ 0x9E3779B97F4A7C15n) || 1n;
  return () => {
    s ^= s >> 12n; s ^= BigInt.asUintN(64, s << 25n); s ^= s >> 27n;
    return Number(BigInt.asUintN(64, s * 0x2545F4914F6CDD1Dn) >> 11n) / 2 ** 53;
  };
}

/** A fresh random seed. */
export function newSeed() {
  return Math.floor(Math.random() * 2 ** 32);
}

/**
 * The seed typed in input `el`: undefined when empty (the server draws one), null (with the
 * reason said in `status`) when it is not exact as a page's number.
 */
export function seedInput(el, status) {
  if (el.value === '') return undefined;
  const seed = Number(el.value);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    say(status, 'The seed must be a whole number from 0 to 2^53 − 1 here (the command line takes any 64-bit seed).', 'bad');
    return null;
  }
  return seed;
}

/** Clamps the integer in input `el` to [min, max] and returns it. */
export function intInput(el, min, max) {
  let v = Math.round(Number(el.value));
  if (!Number.isFinite(v)) v = min;
  v = Math.min(max, Math.max(min, v));
  el.value = v;
  return v;
}

/** Shows `text` in the status line `el`, with class ok/bad. */
export function say(el, text, kind = '') {
  el.textContent = text;
  el.className = `status ${kind}`;
}

/**
 * A keyboard- and pointer-driven grid of `rows x cols` buttons inside `container`.
 * Arrow keys move a cursor, Space/Enter activate; onActivate(r, c) is called for clicks too.
 * Returns { cells, setCursor, cursor }.
 */
export function makeGrid(container, rows, cols, onActivate, label) {
  container.innerHTML = '';
  container.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  container.tabIndex = 0;
  container.setAttribute('role', 'grid');
  container.setAttribute('aria-label', label);
  const cells = [];
  const state = { r: 0, c: 0 };
  for (let r = 0; r < rows; r++) {
    const line = [];
    for (let c = 0; c < cols; c++) {
      const b = document.createElement('button');
      b.className = 'cell';
      b.tabIndex = -1;
      b.dataset.r = r; b.dataset.c = c;
      b.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}`);
      b.addEventListener('click', () => { state.r = r; state.c = c; show(); onActivate(r, c); });
      container.appendChild(b);
      line.push(b);
    }
    cells.push(line);
  }
  const show = () => {
    container.querySelectorAll('.cursor').forEach((e) => e.classList.remove('cursor'));
    if (document.activeElement === container) cells[state.r][state.c].classList.add('cursor');
  };
  container.onkeydown = (e) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[e.key]) {
      state.r = Math.min(rows - 1, Math.max(0, state.r + moves[e.key][0]));
      state.c = Math.min(cols - 1, Math.max(0, state.c + moves[e.key][1]));
      show();
      e.preventDefault();
    } else if (e.key === ' ' || e.key === 'Enter') {
      onActivate(state.r, state.c);
      e.preventDefault();
    }
  };
  container.onfocus = show;
  container.onblur = show;
  return { cells, cursor: state, setCursor(r, c) { state.r = r; state.c = c; show(); } };
}

/** Draws a 0/1 pattern (rows of '0'/'1' or '_'/'#') on a canvas. */
export function drawPattern(canvas, rows, on = '#2f6f73', off = '#fbfaf7') {
  const h = rows.length, w = rows[0]?.length || 0;
  const size = 280;
  canvas.width = size; canvas.height = size;
  const ctx = canvas.getContext('2d');
  const cell = size / Math.max(w, h);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, size, size);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const bit = rows[r][c] === '1' || rows[r][c] === '#';
      ctx.fillStyle = bit ? on : off;
      ctx.fillRect(c * cell + 1, r * cell + 1, cell - 2, cell - 2);
    }
  }
}

/**
 * Plays a live view at a chosen pace: `speed` is a range input of powers of ten (updates per
 * second), `play` the Play/Pause button, `label` shows the pace ("100 updates per second":
 * `noun` in the plural unless 1, then `per`). run(ready, advance) calls advance(k) on each
 * animation frame with the updates owed since the last call (k >= 1) while playing.
 */
export class Pacer {
  constructor(play, speed, label, noun, per) {
    this.playing = false;
    this.playButton = play;
    this.speed = speed;
    this.owed = 0;
    const show = () => { label.textContent = `${plural(this.rate(), noun)} ${per}`; };
    speed.addEventListener('input', show);
    show();
  }

  rate() { return 10 ** Number(this.speed.value); }

  set(on) {
    this.playing = on;
    this.owed = 0;
    this.playButton.textContent = on ? 'Pause' : 'Play';
    this.playButton.setAttribute('aria-pressed', on ? 'true' : 'false');
  }

  run(ready, advance) {
    let last = performance.now();
    const tick = (now) => {
      const dt = Math.min(0.25, (now - last) / 1000);
      last = now;
      if (this.playing) {
        this.owed += this.rate() * dt;
        if (this.owed >= 1 && ready()) {
          const k = Math.floor(this.owed);
          this.owed -= k;
          advance(k);
        }
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }
}

/**
 * A bounded count with live progress (the stream of `queens count`): `n` the input (1 to 18,
 * this server's bound), `go`/`cancel` the buttons, `bar` a <progress>, `status` the line.
 */
export function countWithProgress(n, go, cancel, bar, status) {
  let counting = null;
  go.onclick = async () => {
    const k = intInput(n, 1, 18);
    counting = new AbortController();
    go.disabled = true; cancel.disabled = false;
    bar.value = 0;
    say(status, `Counting n = ${k}…`);
    try {
      const { data } = await stream('queens/count', { n: k }, (p) => {
        bar.max = Math.max(1, p.total);
        bar.value = p.done;
      }, counting.signal);
      bar.value = bar.max;
      say(status, `n = ${data.n}: ${plural(data.total, 'solution')}, ${plural(data.unique, 'class')} (${number(data.seconds)} s).`, 'ok');
    } catch (e) {
      say(status, e.name === 'AbortError' ? 'Cancelled.' : e.message, 'bad');
    } finally {
      go.disabled = false; cancel.disabled = true; counting = null;
    }
  };
  cancel.onclick = () => counting?.abort();
}
