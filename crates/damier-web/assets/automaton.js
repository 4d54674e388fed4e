// The automaton: a run lives on the server (the library's Automaton); the page asks for
// updates and draws each frame: every cell up to n = 64, above the blocks the server computed
// (the library's block density: queens and queens in conflict per block) as a heat map.
import { api, intInput, say, seedInput, fromLink, toLink, toLinkedSteps } from './common.js';
import { count, plural } from './number.js';

const $ = (id) => document.getElementById(id);
const canvas = $('automaton');
const ctx = canvas.getContext('2d');
let frame = null;
let playing = false;
let inflight = false;

const speed = () => 10 ** Number($('speed').value);
function showSpeed() { $('speed-label').textContent = `${plural(speed(), 'update')} per frame`; }

const EMPTY = [233, 228, 216];
const CALM = [46, 125, 79], HALF = [222, 140, 20], CROWDED = [176, 65, 62];
const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));

/**
 * A block's colour: plain when empty; else its hue says the share of its queens in conflict
 * (green none, orange half, red all) and its depth the queens a row of the block (`rows` rows).
 */
function blockColour(queens, conflicts, rows) {
  if (!queens) return EMPTY;
  const share = conflicts / queens;
  const hue = share <= 0.5 ? mix(CALM, HALF, share * 2) : mix(HALF, CROWDED, share * 2 - 1);
  return mix(EMPTY, hue, 0.45 + 0.55 * Math.min(1, queens / rows));
}

/** The legend's two strips, drawn by the colours of the board. */
function drawLegend() {
  const strip = (id, colour) => {
    const c = $(id), g = c.getContext('2d');
    for (let x = 0; x < c.width; x++) {
      g.fillStyle = `rgb(${colour(x / (c.width - 1)).join(',')})`;
      g.fillRect(x, 0, 1, c.height);
    }
  };
  strip('legend-density', (t) => blockColour(1 + t * 99, 0, 100));
  strip('legend-conflict', (t) => blockColour(100, Math.round(t * 100), 100));
}

/** The board in blocks: one pixel a block on a small canvas, scaled up without smoothing. */
function drawBlocks(b, n) {
  const img = new ImageData(b.across, b.across);
  for (let by = 0; by < b.across; by++) {
    const rows = Math.min(b.side, n - by * b.side);
    for (let bx = 0; bx < b.across; bx++) {
      const i = by * b.across + bx;
      const [r, g, bl] = blockColour(b.queens[i], b.conflicts[i], rows);
      img.data.set([r, g, bl, 255], 4 * i);
    }
  }
  const small = document.createElement('canvas');
  small.width = small.height = b.across;
  small.getContext('2d').putImageData(img, 0, 0);
  const size = canvas.width;
  // The last blocks are cut by the board's edge: the image covers across * side cells.
  const scaled = (size * b.across * b.side) / n;
  ctx.clearRect(0, 0, size, size);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small, 0, 0, scaled, scaled);
  if (frame.solved) {
    ctx.strokeStyle = '#2e7d4f';
    ctx.lineWidth = 6;
    ctx.strokeRect(3, 3, size - 6, size - 6);
  }
}

function draw() {
  if (!frame) return;
  const n = frame.n;
  $('legend').hidden = !frame.blocks;
  if (frame.blocks) {
    drawBlocks(frame.blocks, n);
    const side = frame.blocks.side;
    $('legend-blocks').textContent = side > 1
      ? `${n} x ${n} cells in ${frame.blocks.across} x ${frame.blocks.across} blocks of ${side} x ${side}`
      : `${n} x ${n} cells, one a block`;
  } else drawCells(n);
  showCounters();
}

function drawCells(n) {
  const size = canvas.width;
  const cell = size / n;
  ctx.clearRect(0, 0, size, size);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      ctx.fillStyle = (x + y) % 2 ? '#cfc6b3' : '#e9e4d8';
      ctx.fillRect(x * cell, y * cell, cell, cell);
    }
  }
  // Signals: a short line from the centre towards each signalled direction.
  ctx.strokeStyle = '#2f6f73';
  ctx.lineWidth = Math.max(1, cell / 22);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const s = frame.signals[y * n + x];
      if (!s) continue;
      const cx = (x + 0.5) * cell, cy = (y + 0.5) * cell;
      ctx.beginPath();
      frame.directions.forEach(([dx, dy], d) => {
        if (!(s & (1 << d))) return;
        const len = cell * 0.42;
        ctx.moveTo(cx, cy);
        ctx.lineTo(cx + dx * len, cy + dy * len);
      });
      ctx.stroke();
    }
  }
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const k = frame.counts[y * n + x];
      if (!k) continue;
      const cx = (x + 0.5) * cell, cy = (y + 0.5) * cell;
      ctx.fillStyle = k > 1 ? '#b0413e' : (frame.solved ? '#2e7d4f' : '#23262b');
      ctx.beginPath();
      ctx.arc(cx, cy, cell * 0.3, 0, 2 * Math.PI);
      ctx.fill();
      if (k > 1) {
        ctx.fillStyle = '#fff';
        ctx.font = `${Math.round(cell * 0.35)}px system-ui, sans-serif`;
        ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
        ctx.fillText(String(k), cx, cy);
      }
    }
  }
}

function showCounters() {
  $('s-seed').textContent = frame.seed;
  $('s-steps').textContent = count(frame.steps);
  $('s-conflicts').textContent = count(frame.conflicts);
  $('s-moves').textContent = count(frame.moves);
  $('s-solved').textContent = frame.solved ? 'yes' : 'no';
  $('s-absorbing').textContent = frame.absorbing ? 'yes' : 'no';
  // The link: the run's parameters, its seed and the updates made (the same seed replays it).
  toLink({ model: frame.model, n: frame.n, eps: frame.eps, eta: frame.eta, seed: frame.seed, steps: frame.steps });
  if (frame.solved) say($('status'), `Solved after ${plural(frame.steps, 'update')} and ${plural(frame.moves, 'move')}.`, 'ok');
}

async function newRun() {
  setPlaying(false);
  const body = {
    model: $('model').value,
    n: intInput($('n'), 1, Number($('n').max) || 2 ** 32 - 1),
    eps: Number($('eps').value),
  };
  // η only for a model that uses it: the server refuses it for the others.
  if (!$('eta').disabled) body.eta = Number($('eta').value);
  const seed = seedInput($('seed'), $('status'));
  if (seed === null) return;
  if (seed !== undefined) body.seed = seed;
  try {
    frame = (await api('live/automaton', body)).data;
    say($('status'), '');
    draw();
  } catch (e) { say($('status'), e.message, 'bad'); }
}

async function advance(updates) {
  if (!frame || inflight || frame.solved) return;
  inflight = true;
  try {
    frame = (await api(`live/automaton/${frame.id}/step`, { updates })).data;
    draw();
    if (frame.solved) setPlaying(false);
  } catch (e) {
    setPlaying(false);
    say($('status'), e.message, 'bad');
  } finally { inflight = false; }
}

function setPlaying(on) {
  playing = on;
  $('play').textContent = on ? 'Pause' : 'Play';
  $('play').setAttribute('aria-pressed', on ? 'true' : 'false');
}

function loop() {
  if (playing) advance(speed());
  requestAnimationFrame(loop);
}

$('new').onclick = newRun;
$('play').onclick = () => setPlaying(!playing && !!frame && !frame.solved);
$('step').onclick = () => { setPlaying(false); advance(1); };
$('speed').oninput = showSpeed;
document.addEventListener('keydown', (e) => {
  if (['INPUT', 'SELECT', 'BUTTON'].includes(e.target.tagName)) return;
  if (e.key === ' ') { e.preventDefault(); $('play').click(); }
  if (e.key === '.') advance(1);
});
/** The selector offers every model of the library, as the server lists them. */
async function loadModels() {
  try {
    const { data } = await api('live/automaton/models', {});
    $('model').innerHTML = data.map((m) => `<option value="${m.name}">${m.label}</option>`).join('');
    // η only where the model uses it; n up to the server's bound for the model (none: no max).
    const chosen = () => {
      const m = data.find((d) => d.name === $('model').value);
      $('eta').disabled = !m?.uses_eta;
      $('n').max = m?.max_n ?? '';
      $('n-max').textContent = m?.max_n ? `up to ${count(m.max_n)}` : '';
    };
    $('model').onchange = chosen;
    chosen();
  } catch (e) { say($('status'), e.message, 'bad'); }
}

showSpeed();
drawLegend();
// The run of the link (`?model=cell&n=8&eps=0.01&eta=0.03&seed=7&steps=300`), or a new one.
loadModels()
  .then(() => {
    fromLink(['model', 'n', 'eps', 'eta', 'seed']);
    if (!$('model').value) $('model').selectedIndex = 0;
    $('model').onchange?.();
  })
  .then(newRun)
  .then(() => toLinkedSteps(advance, () => frame && { steps: frame.steps, over: frame.solved }))
  .then(() => requestAnimationFrame(loop));
