// Lights Out: the board lives here; hints, solutions, kernel, elimination and chasing come
// from the API (the same JSON as `damier lights ... --json`).
import { api, rng, newSeed, intInput, say, makeGrid, drawPattern, linked, fromLink, toLink } from './common.js';
import { count, plural } from './number.js';

const $ = (id) => document.getElementById(id);
let W = 5, H = 5;
let lights = [];          // lights[r][c] = 0/1, row 0 on top
let history = [];         // presses made, for undo
let marks = null;         // a fewest-presses solution shown on the board
let hintCell = null;
let grid = null;
let kernel = [], kernelAt = 0;
let steps = [], stepAt = 0;
let animating = false;
let start = null;          // the start in the link: { seed } (random) or { board } (rows joined by '.')

const text = () => lights.map((row) => row.join('')).join('\n');
const litCount = () => lights.reduce((s, row) => s + row.reduce((a, b) => a + b, 0), 0);

function press(r, c) {
  for (const [dr, dc] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]) {
    const y = r + dr, x = c + dc;
    if (y >= 0 && y < H && x >= 0 && x < W) lights[y][x] ^= 1;
  }
}

// What each cell shows ('on', 'mark', 'hint' flags), as last drawn: only the cells that change
// are touched (a 20 x 20 board redrawn whole on each hint spent most of the answer's time in
// the browser's restyling, not in the library).
let drawn = [];

function render() {
  if (drawn.length !== H || drawn[0]?.length !== W) drawn = Array.from({ length: H }, () => new Array(W).fill(-1));
  for (let r = 0; r < H; r++) {
    for (let c = 0; c < W; c++) {
      const on = lights[r][c] === 1, mark = !!marks && marks[r][c] === '1';
      const hint = !!hintCell && hintCell[0] === r && hintCell[1] === c;
      const state = on | mark << 1 | hint << 2;
      if (drawn[r][c] === state) continue;
      drawn[r][c] = state;
      const b = grid.cells[r][c];
      b.classList.toggle('on', on);
      b.classList.toggle('mark', mark);
      b.classList.toggle('hint', hint);
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  }
  $('presses').textContent = history.length;
  $('on').textContent = litCount();
  // The link: size, start (a seed, or the board as drawn) and the presses made since.
  toLink({ w: W, h: H, ...start, p: history.map(([r, c]) => r * W + c).join('-') });
}

const rowsText = () => lights.map((row) => row.join('')).join('.');

function afterChange() {
  marks = null; hintCell = null;
  chaseSteps = []; chaseAt = 0;
  $('fewest').textContent = '–';
  render();
  if (litCount() === 0 && history.length > 0) {
    say($('status'), `Solved in ${plural(history.length, 'press')}.`, 'ok');
  } else {
    say($('status'), '');
  }
}

function onCell(r, c) {
  if (animating) return;
  if ($('draw').checked) {
    lights[r][c] ^= 1;
    history = [];
    start = { board: rowsText() };
  } else {
    press(r, c);
    history.push([r, c]);
  }
  afterChange();
}

function newBoard(random) {
  W = intInput($('w'), 1, 50);
  H = intInput($('h'), 1, 50);
  lights = Array.from({ length: H }, () => new Array(W).fill(0));
  if (random) {
    const typed = Number($('seed').value);
    if ($('seed').value === '' || !Number.isSafeInteger(typed) || typed < 0) $('seed').value = newSeed();
    const next = rng(Number($('seed').value));
    // Winnable by construction: the lights left by random presses on a dark board.
    for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) if (next() < 0.5) press(r, c);
    start = { seed: Number($('seed').value) };
  } else {
    start = { board: rowsText() };
  }
  history = [];
  grid = makeGrid($('board'), H, W, onCell, `Lights Out board, ${W} by ${H}`);
  drawn = [];
  $('board').style.width = `min(100%, ${Math.max(200, Math.min(560, W * 56))}px)`;
  afterChange();
  loadKernel();
  steps = []; showStep();
  $('explain').disabled = W * H > 64;
}

async function fewest() {
  const { data, exit } = await api('lights/solve', { file: text(), min: true });
  if (exit === 1) {
    say($('status'), 'This board cannot be switched off (it is not winnable).', 'bad');
    return null;
  }
  $('fewest').textContent = data.press_count + (data.exact_min ? '' : ' (heuristic)');
  return data;
}

async function run(action) {
  try { await action(); } catch (e) { say($('status'), e.message, 'bad'); }
}

$('hint').onclick = () => run(async () => {
  if (litCount() === 0) return;
  const data = await fewest();
  if (!data) return;
  // A fewest-presses solution minus one of its presses is one of the board after that press:
  // following hints always wins.
  for (let r = 0; r < H; r++) {
    const c = data.presses[r].indexOf('1');
    if (c >= 0) { hintCell = [r, c]; grid.setCursor(r, c); break; }
  }
  render();
  say($('status'), `Hint: press row ${hintCell[0] + 1}, column ${hintCell[1] + 1}.`);
});

$('solution').onclick = () => run(async () => {
  const data = await fewest();
  if (!data) return;
  marks = data.presses;
  render();
  say($('status'), `${plural(data.press_count, 'press')} ${data.press_count === 1 ? 'switches' : 'switch'} every light off (marked).`);
});

$('undo').onclick = () => {
  const last = history.pop();
  if (last) press(last[0], last[1]);
  afterChange();
};

$('random').onclick = () => { $('seed').value = newSeed(); newBoard(true); };
$('clear').onclick = () => newBoard(false);
$('w').onchange = $('h').onchange = () => newBoard(false);

async function loadKernel() {
  try {
    const { data } = await api('lights/kernel', { size: `${W}x${H}` });
    kernel = data.basis; kernelAt = 0;
    $('nullity').textContent = data.nullity;
    $('kernel-summary').textContent = `${W} × ${H}: nullity ${data.nullity}, so ${plural(2n ** BigInt(data.nullity), 'neutral configuration')} and 1 start in ${count(2n ** BigInt(data.nullity))} is winnable.`;
    showKernel();
  } catch (e) { say($('status'), e.message, 'bad'); }
}

function showKernel() {
  const canvas = $('kernel-canvas');
  if (!kernel.length) {
    drawPattern(canvas, Array.from({ length: H }, () => '0'.repeat(W)));
    $('kernel-index').textContent = 'none: every board has one solution';
    return;
  }
  drawPattern(canvas, kernel[kernelAt]);
  $('kernel-index').textContent = `vector ${kernelAt + 1} of ${kernel.length}`;
}
$('kernel-prev').onclick = () => { if (kernel.length) { kernelAt = (kernelAt + kernel.length - 1) % kernel.length; showKernel(); } };
$('kernel-next').onclick = () => { if (kernel.length) { kernelAt = (kernelAt + 1) % kernel.length; showKernel(); } };

$('explain').onclick = () => run(async () => {
  const { data } = await api('lights/solve', { file: text(), explain: true });
  steps = data.steps || []; stepAt = 0;
  showStep();
});
function showStep() {
  $('step-prev').disabled = stepAt <= 0;
  $('step-next').disabled = stepAt >= steps.length - 1;
  if (!steps.length) { $('matrix').textContent = ''; $('step-label').textContent = ''; return; }
  const s = steps[stepAt];
  $('step-label').textContent = `step ${stepAt + 1} of ${steps.length}: column ${s.column}, ${s.pivot_row === null ? 'no pivot (a free unknown)' : `pivot row L${s.pivot_row}`}`;
  $('matrix').textContent = [...s.ops, '', ...s.matrix].join('\n');
}
$('step-prev').onclick = () => { stepAt--; showStep(); };
$('step-next').onclick = () => { stepAt++; showStep(); };

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
// Light chasing, step by step: the steps come from the library's explained chase
// (`lights chase`): the presses of the first chase, the first row read from the chase table,
// and the second chase (the total presses less the first two). One step = one row's presses.
let chaseSteps = [];
let chaseAt = 0;

function chaseStepsOf(data) {
  const bit = (rows, r, c) => rows[r][c] === '1';
  const steps = [];
  const rowPresses = (pattern, r) => [...Array(W).keys()].filter((c) => pattern(r, c)).map((c) => [r, c]);
  const first = (r, c) => bit(data.chase_presses, r, c);
  for (let r = 1; r < H; r++) {
    steps.push({ presses: rowPresses(first, r), text: `Chase down, row ${r + 1}: press under every light of row ${r}.` });
  }
  if (!data.solvable) {
    steps.push({ presses: [], text: `Lights left on the last row (${data.last_row}): no first row fixes them, not winnable.`, end: 'bad' });
    return steps;
  }
  steps.push({ presses: rowPresses((r, c) => data.first_row[c] === '1', 0),
    text: `Last row ${data.last_row}: the chase table says press ${data.first_row} on the first row.` });
  // The second chase: total presses = first chase + first row + second chase (over GF(2)).
  const second = (r, c) => bit(data.presses, r, c) !== first(r, c);
  for (let r = 1; r < H; r++) {
    steps.push({ presses: rowPresses(second, r), text: `Chase again, row ${r + 1}: press under every light of row ${r}.` });
  }
  steps[steps.length - 1].end = 'ok';
  return steps;
}

/** Performs the next chase step (fetching the chase first); false once there is none. */
async function chaseStep() {
  if (chaseAt >= chaseSteps.length) {
    if (litCount() === 0) return false;
    const { data } = await api('lights/chase', { file: text() });
    chaseSteps = chaseStepsOf(data);
    chaseAt = 0;
  }
  const s = chaseSteps[chaseAt++];
  for (const [r, c] of s.presses) { press(r, c); history.push([r, c]); }
  hintCell = null;
  render();
  if (s.end === 'ok') say($('status'), `${s.text} Solved by chasing in ${plural(history.length, 'press')}.`, 'ok');
  else say($('status'), s.text, s.end === 'bad' ? 'bad' : '');
  if (s.end) chaseSteps = [];
  return !s.end;
}

$('chase-step').onclick = () => run(async () => { if (!animating) await chaseStep(); });
$('chase').onclick = () => run(async () => {
  if (animating || litCount() === 0) return;
  animating = true;
  chaseSteps = []; chaseAt = 0;
  try {
    while (await chaseStep()) await sleep(Math.max(60, 1500 / H));
  } finally { animating = false; }
});

/** The board of the link (`?w=5&h=5&seed=7&p=0-12`, or `board=01..10.` rows for a drawn
 * start), or a random one. */
function fromLinkOrRandom() {
  fromLink(['w', 'h', 'seed']);
  const board = linked.get('board');
  newBoard(board === null);
  if (board !== null) {
    const rows = board.split('.');
    for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) lights[r][c] = rows[r]?.[c] === '1' ? 1 : 0;
    start = { board: rowsText() };
  }
  for (const i of (linked.get('p') || '').split('-').filter((x) => x !== '').map(Number)) {
    if (!Number.isInteger(i) || i < 0 || i >= W * H) continue;
    press(Math.floor(i / W), i % W);
    history.push([Math.floor(i / W), i % W]);
  }
  afterChange();
}

fromLinkOrRandom();
