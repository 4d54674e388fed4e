// The factoring automaton: a run lives on the server (the library's factor::FactorAutomaton); the
// page asks for updates at the chosen pace and draws the grid of each frame.
import { api, intInput, say, seedInput, Pacer, linked, fromLink, toLink, toLinkedSteps } from './common.js';
import { count, plural } from './number.js';

const $ = (id) => document.getElementById(id);
const canvas = $('grid');
const ctx = canvas.getContext('2d');
let frame = null;
let inflight = false;
const pacer = new Pacer($('play'), $('speed'), $('speed-label'), 'update', 'per second');

const view = () => document.querySelector('input[name="view"]:checked').value;

function draw() {
  if (!frame) return;
  const { la, lb } = frame;
  const last = frame.feet.length - 1;
  // Columns: x = i + j, highest on the left; one more on the right for the bits of b.
  const cols = last + 2, rows = lb + 3;
  const cell = Math.max(12, Math.min(40, Math.floor(720 / cols)));
  canvas.width = cols * cell; canvas.height = rows * cell;
  const X = (x) => (last - x) * cell;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
  ctx.font = `${Math.round(cell * 0.55)}px ui-monospace, monospace`;
  const text = (t, x, y, color) => { ctx.fillStyle = color; ctx.fillText(t, x + cell / 2, y + cell / 2); };
  const box = (x, y, color) => { ctx.fillStyle = color; ctx.fillRect(x + 1, y + 1, cell - 2, cell - 2); };
  // Border a: bit a_j above column j.
  for (let j = 0; j < la; j++) {
    const flash = frame.last_border === `a${j}`;
    box(X(j), 0, flash ? '#f2c14e' : '#e3efe9');
    text(String(frame.a_bits[j]), X(j), 0, '#2e7d4f');
  }
  for (let i = 0; i < lb; i++) {
    const flash = frame.last_border === `b${i}`;
    box(X(-1), (i + 1) * cell, flash ? '#f2c14e' : '#e3efe9');
    text(String(frame.b_bits[i]), X(-1), (i + 1) * cell, '#2e7d4f');
    for (let j = 0; j < la; j++) {
      const c = frame.cells[i * la + j];
      const x = X(i + j), y = (i + 1) * cell;
      box(x, y, '#fbfaf7');
      const v = view();
      const t = v === 'product' ? (c.product ? '1' : '·') : v === 'sum' ? String(c.sum % 10) : (c.verdict || '·');
      const lit = v === 'product' ? c.product : v === 'sum' ? c.sum > 0 : !!c.verdict;
      text(t, x, y, c.stale ? '#b0413e' : (lit ? '#23262b' : '#9aa0a6'));
    }
  }
  // Feet: each column's total against the bit of N.
  const yt = (lb + 1) * cell, yn = (lb + 2) * cell;
  frame.feet.forEach((f, x) => {
    box(X(x), yt, f.err ? '#f4d6d5' : '#e9e4d8');
    text(String(f.total), X(x), yt, f.err ? '#b0413e' : '#23262b');
    text(String(frame.n_bits[x]), X(x), yn, '#2f6f73');
  });
  ctx.textAlign = 'left';
  ctx.font = `${Math.round(cell * 0.4)}px system-ui, sans-serif`;
  ctx.fillStyle = '#666b73';
  ctx.fillText('N', X(-1) + 4, yn + cell / 2);
  $('s-n').textContent = frame.n;
  $('s-seed').textContent = frame.seed;
  $('s-steps').textContent = count(frame.steps);
  $('s-flips').textContent = count(frame.flips);
  $('s-ab').textContent = `${frame.a} × ${frame.b}`;
  $('s-factors').textContent = frame.factors ? `${frame.factors[0]} × ${frame.factors[1]}` : '–';
  // The link: N, the run's parameters, its seed and the updates made (the same seed replays it).
  toLink({ n: frame.n, q: frame.q, eps: frame.eps, seed: frame.seed, steps: frame.steps, view: view() });
  if (frame.factors) {
    say($('status'), `Factored: ${frame.n} = ${frame.factors[0]} × ${frame.factors[1]} (checked), after ${plural(frame.steps, 'update')}.`, 'ok');
  }
}

async function newRun(body) {
  pacer.set(false);
  for (const k of ['q', 'eps']) body[k] = Number($(k).value);
  const seed = seedInput($('seed'), $('status'));
  if (seed === null) return;
  if (seed !== undefined) body.seed = seed;
  try {
    frame = (await api('live/factor', body)).data;
    $('n').value = frame.n;
    say($('status'), '');
    draw();
  } catch (e) { say($('status'), e.message, 'bad'); }
}

async function advance(updates) {
  if (!frame || inflight || frame.absorbing || updates < 1) return;
  inflight = true;
  try {
    frame = (await api(`live/factor/${frame.id}/step`, { updates })).data;
    draw();
    if (frame.absorbing) pacer.set(false);
  } catch (e) {
    pacer.set(false);
    say($('status'), e.message, 'bad');
  } finally { inflight = false; }
}

$('new').onclick = () => newRun({ n: $('n').value.trim() });
$('random').onclick = () => newRun({ bits: intInput($('bits'), 6, 64) });
$('play').onclick = () => pacer.set(!pacer.playing && !!frame && !frame.absorbing);
$('step').onclick = () => { pacer.set(false); advance(1); };
document.querySelectorAll('input[name="view"]').forEach((r) => { r.onchange = draw; });
document.addEventListener('keydown', (e) => {
  if (['INPUT', 'SELECT', 'BUTTON', 'TEXTAREA'].includes(e.target.tagName)) return;
  if (e.key === ' ') { e.preventDefault(); $('play').click(); }
  if (e.key === '.') advance(1);
});
pacer.run(() => !inflight, advance);
// The run of the link (`?n=143&q=0.5&eps=0.01&seed=7&steps=300&view=sum`), or a new one.
fromLink(['n', 'q', 'eps', 'seed']);
const linkedView = document.querySelector(`input[name="view"][value="${CSS.escape(linked.get('view') || '')}"]`);
if (linkedView) linkedView.checked = true;
newRun({ n: $('n').value.trim() }).then(() => toLinkedSteps(advance, () => frame && { steps: frame.steps, over: frame.absorbing }));
