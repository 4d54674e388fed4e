// The walk: every position comes from the library (POST /api/live/walk/plan replays the moves
// made and plans the rest), so the page never applies the rule itself.
import { api, intInput, say, linked, fromLink, toLink } from './common.js';
import { plural } from './number.js';

const $ = (id) => document.getElementById(id);
let rows = 4, cols = 4;
let moves = '';
let plan = '';        // the plan being followed: kept while the player follows it
let state = null;     // the last answer: board, pawn, solved
let showHint = false;
let animation = null;
let busy = Promise.resolve();

function render() {
  const board = $('board');
  if (!state) return;
  const cells = board.children;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const el = cells[r * cols + c];
      el.classList.toggle('black', state.board[r][c] === '#');
      el.classList.toggle('pawn', state.pawn[0] === r && state.pawn[1] === c);
      el.classList.remove('next');
      el.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}, ${state.board[r][c] === '#' ? 'black' : 'white'}${state.pawn[0] === r && state.pawn[1] === c ? ', pawn' : ''}`);
    }
  }
  if (showHint && plan) {
    const d = { N: [-1, 0], S: [1, 0], E: [0, 1], W: [0, -1] }[plan[0]];
    const r = state.pawn[0] + d[0], c = state.pawn[1] + d[1];
    cells[r * cols + c]?.classList.add('next');
  }
  const white = state.board.reduce((s, row) => s + [...row].filter((x) => x === '_').length, 0);
  $('count').textContent = moves.length;
  $('white').textContent = white;
  $('left').textContent = plan.length;
  $('path').textContent = moves || '(start)';
  toLink({ rows, cols, moves });
  if (state.solved) say($('status'), `All black in ${plural(moves.length, 'move')}!`, 'ok');
}

async function sync(move) {
  const next = moves + (move || '');
  const { data } = await api('live/walk/plan', { rows, cols, moves: next });
  moves = next;
  // Keep the plan while the player follows it; otherwise take the new one.
  if (move && plan[0] === move) plan = plan.slice(1);
  else plan = data.plan;
  state = data;
  render();
}

function queue(job) {
  busy = busy.then(job).catch((e) => say($('status'), e.message, 'bad'));
  return busy;
}

function move(m) {
  if (!state) return;
  const d = { N: [-1, 0], S: [1, 0], E: [0, 1], W: [0, -1] }[m];
  const r = state.pawn[0] + d[0], c = state.pawn[1] + d[1];
  if (r < 0 || r >= rows || c < 0 || c >= cols) { say($('status'), 'The pawn cannot leave the board.', 'bad'); return; }
  say($('status'), '');
  showHint = false;
  return queue(() => sync(m));
}

function newWalk() {
  stopAnimation();
  rows = intInput($('rows'), 1, 20);
  cols = intInput($('cols'), 1, 20);
  moves = ''; plan = ''; state = null; showHint = false;
  const board = $('board');
  board.innerHTML = '';
  board.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  board.style.width = `min(100%, ${Math.max(200, Math.min(560, cols * 64))}px)`;
  for (let i = 0; i < rows * cols; i++) {
    const el = document.createElement('div');
    el.className = 'cell';
    el.setAttribute('role', 'img');
    board.appendChild(el);
  }
  say($('status'), '');
  queue(() => sync(''));
}

function stopAnimation() {
  if (animation) { clearInterval(animation); animation = null; $('solve').textContent = 'Solve (animated)'; }
}

const KEYS = { ArrowUp: 'N', ArrowDown: 'S', ArrowLeft: 'W', ArrowRight: 'E', w: 'N', s: 'S', a: 'W', d: 'E', W: 'N', S: 'S', A: 'W', D: 'E' };
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT') return;
  const m = KEYS[e.key];
  if (m) { e.preventDefault(); stopAnimation(); move(m); }
});
for (const m of 'NSEW') $(`mv-${m}`).onclick = () => { stopAnimation(); move(m); };
$('hint').onclick = () => {
  if (!state || state.solved) return;
  showHint = true; render();
  say($('status'), `Hint: move ${{ N: 'north', S: 'south', E: 'east', W: 'west' }[plan[0]]}.`);
};
$('solve').onclick = () => {
  if (animation) { stopAnimation(); return; }
  $('solve').textContent = 'Stop';
  animation = setInterval(() => {
    if (!state || state.solved || !plan) { stopAnimation(); return; }
    showHint = true;
    queue(() => sync(plan[0]).then(() => { showHint = true; render(); }));
  }, 220);
};
$('undo').onclick = () => {
  stopAnimation();
  if (!moves) return;
  moves = moves.slice(0, -1);
  plan = '';
  queue(() => sync(''));
};
$('new').onclick = newWalk;
// The walk of the link (`?rows=4&cols=5&moves=NNE`), or a new one.
fromLink(['rows', 'cols']);
newWalk();
const linkedMoves = linked.get('moves') || '';
if (/^[NSEW]+$/.test(linkedMoves)) queue(() => sync(linkedMoves));
