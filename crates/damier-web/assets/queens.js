// n queens: listing (paged), classes with their symmetries, a placement checked by the API,
// and a count streaming its progress.
import { api, intInput, say, makeGrid, countWithProgress, linked, fromLink, toLink } from './common.js';
import { plural } from './number.js';

const $ = (id) => document.getElementById(id);
const PER_PAGE = 12;
let n = 8;
let columns = [];         // 1-based column per row, 0 = no queen
let grid = null;
let listed = [], page = 0, unique = false;

// The 8 symmetries of the square, on (row, col) in 0..n-1.
const SYMMETRIES = [
  ['identity', (r, c) => [r, c]],
  ['rotation 90°', (r, c, m) => [c, m - r]],
  ['rotation 180°', (r, c, m) => [m - r, m - c]],
  ['rotation 270°', (r, c, m) => [m - c, r]],
  ['vertical mirror', (r, c, m) => [r, m - c]],
  ['horizontal mirror', (r, c, m) => [m - r, c]],
  ['diagonal', (r, c) => [c, r]],
  ['anti-diagonal', (r, c, m) => [m - c, m - r]],
];

/** The symmetries that map the placement (1-based columns) onto itself. */
function fixedBy(cols) {
  const m = cols.length - 1;
  return SYMMETRIES.filter(([, f]) => {
    const image = new Array(cols.length).fill(0);
    cols.forEach((c, r) => { const [r2, c2] = f(r, c - 1, m); image[r2] = c2 + 1; });
    return image.every((c, r) => c === cols[r]);
  }).map(([name]) => name);
}

function drawMini(canvas, cols) {
  const size = 240, k = cols.length, cell = size / k;
  canvas.width = size; canvas.height = size;
  const ctx = canvas.getContext('2d');
  for (let r = 0; r < k; r++) {
    for (let c = 0; c < k; c++) {
      ctx.fillStyle = (r + c) % 2 ? '#cfc6b3' : '#e9e4d8';
      ctx.fillRect(c * cell, r * cell, cell, cell);
    }
    ctx.fillStyle = '#23262b';
    ctx.beginPath();
    ctx.arc((cols[r] - 0.5) * cell, (r + 0.5) * cell, cell * 0.32, 0, 2 * Math.PI);
    ctx.fill();
  }
}

/** The link: n, the queens placed (1-based columns, 0 for an empty row), the listing shown. */
function saveLink() {
  toLink({ n, queens: columns.some((c) => c > 0) ? columns.join('-') : '', which: unique ? 'unique' : 'all', page: page + 1 });
}

function showPage() {
  const box = $('solutions');
  box.innerHTML = '';
  const pages = Math.max(1, Math.ceil(listed.length / PER_PAGE));
  page = Math.min(Math.max(0, page), pages - 1);
  $('page').textContent = listed.length ? `page ${page + 1} of ${pages}` : '';
  $('prev').disabled = page === 0;
  $('next').disabled = page >= pages - 1;
  for (const item of listed.slice(page * PER_PAGE, (page + 1) * PER_PAGE)) {
    const fig = document.createElement('figure');
    fig.className = 'mini';
    fig.style.margin = '0';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('aria-label', `solution ${item.index}: columns ${item.columns.join(' ')}`);
    drawMini(canvas, item.columns);
    const cap = document.createElement('figcaption');
    let text = `#${item.index}: ${item.columns.join(' ')}`;
    if (unique) {
      const fixed = fixedBy(item.columns);
      text += ` · class of ${item.class_size} · fixed by ${fixed.join(', ')}`;
    }
    cap.textContent = text;
    const use = document.createElement('button');
    use.textContent = 'place';
    use.setAttribute('aria-label', `place solution ${item.index} on the board`);
    use.onclick = () => { columns = [...item.columns]; check(); window.scrollTo({ top: 0, behavior: 'smooth' }); };
    fig.append(canvas, cap, use);
    box.appendChild(fig);
  }
  saveLink();
}

async function list() {
  n = intInput($('n'), 1, 14);
  unique = document.querySelector('input[name="which"]:checked').value === 'unique';
  say($('list-status'), 'Listing…');
  try {
    const body = { n, no_boards: true };
    if (unique) body.unique = true;
    listed = (await api('queens/list', body)).data;
    page = 0;
    $('list-title').textContent = `${unique ? 'One solution per class' : 'All solutions'} for n = ${n}`;
    if (unique) $('classes').textContent = listed.length; else $('total').textContent = listed.length;
    say($('list-status'), listed.length ? '' : `n = ${n} has no solution.`);
    showPage();
  } catch (e) { say($('list-status'), e.message, 'bad'); }
}

function setupBoard() {
  n = intInput($('n'), 1, 14);
  columns = new Array(n).fill(0);
  grid = makeGrid($('place'), n, n, (r, c) => {
    columns[r] = columns[r] === c + 1 ? 0 : c + 1;
    check();
  }, `${n} by ${n} board for placing queens`);
  $('place').style.width = `min(100%, ${Math.min(480, n * 56)}px)`;
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) grid.cells[r][c].classList.toggle('dark', (r + c) % 2 === 1);
  check();
}

async function check() {
  saveLink();
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const q = columns[r] === c + 1;
      const cell = grid.cells[r][c];
      cell.classList.toggle('queen', q);
      cell.classList.remove('attacked');
      cell.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}${q ? ', queen' : ''}`);
    }
  }
  const placed = columns.filter((c) => c > 0).length;
  if (placed < n) {
    say($('place-status'), `${placed} of ${plural(n, 'queen')} placed.`);
    return;
  }
  try {
    const { data } = await api('queens/check', { columns });
    for (const a of data.attacks) {
      for (const [r, c] of [a.a, a.b]) grid.cells[r - 1][c - 1].classList.add('attacked');
    }
    if (data.valid) say($('place-status'), 'A solution: no two queens attack each other.', 'ok');
    else say($('place-status'), `${data.attacks.length} attacking pair${data.attacks.length > 1 ? 's' : ''}: ${data.attacks.slice(0, 4).map((a) => `(${a.a}) and (${a.b}) on a ${a.line}`).join('; ')}${data.attacks.length > 4 ? '…' : ''}`, 'bad');
  } catch (e) { say($('place-status'), e.message, 'bad'); }
}

countWithProgress($('count-n'), $('count'), $('cancel'), $('progress'), $('count-status'));
$('prev').onclick = () => { page--; showPage(); };
$('next').onclick = () => { page++; showPage(); };
$('list').onclick = list;
$('clear').onclick = setupBoard;
$('n').onchange = () => { setupBoard(); list(); };
// The board and listing of the link (`?n=8&queens=1-5-8-6-3-7-2-4&which=unique&page=2`), or n = 8.
fromLink(['n']);
const linkedWhich = document.querySelector(`input[name="which"][value="${linked.get('which') === 'unique' ? 'unique' : 'all'}"]`);
if (linkedWhich) linkedWhich.checked = true;
setupBoard();
const placed = (linked.get('queens') || '').split('-').map(Number);
if (placed.length === n && placed.every((c) => Number.isInteger(c) && c >= 0 && c <= n)) {
  columns = placed;
  check();
}
const linkedPage = Number(linked.get('page'));
list().then(() => {
  if (Number.isInteger(linkedPage) && linkedPage > 1) { page = linkedPage - 1; showPage(); }
});
