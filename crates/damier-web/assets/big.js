// Huge boards: a Lights Out board up to 2000 x 2000 solved by the library (on the server, or in
// the page's worker on the static site), both boards drawn from the raw PBM files it answers
// (which are also the downloads), zoom and pan on a canvas; one n-queens solution by local
// search drawn as an image.
import { api, say, newSeed, seedInput, linked, fromLink, toLink, serverless } from './common.js';
import { count, measured, number, plural } from './number.js';

const $ = (id) => document.getElementById(id);
// Who checked an answer: the server, or the library in this page (the static site).
const checker = serverless ? 'the library in this page' : 'the server';
const view = $('view');
const ctx = view.getContext('2d');
let answer = null;
// The picture of each board at one pixel per cell, and the view: cells per screen pixel
// `scale`, the cell at the canvas's top-left corner (x0, y0).
const pictures = {};
const cam = { scale: 1, x0: 0, y0: 0 };

function base64Bytes(b64) {
  const text = atob(b64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The width, height and packed rows of a raw (P4) PBM file, as the server writes it. */
function readP4(bytes) {
  let pos = 0;
  const token = () => {
    for (;;) {
      while (pos < bytes.length && /\s/.test(String.fromCharCode(bytes[pos]))) pos++;
      if (bytes[pos] === 35) { while (pos < bytes.length && bytes[pos] !== 10) pos++; } else break;
    }
    let t = '';
    while (pos < bytes.length && !/\s/.test(String.fromCharCode(bytes[pos]))) t += String.fromCharCode(bytes[pos++]);
    return t;
  };
  if (token() !== 'P4') throw new Error('not a raw PBM file');
  const w = Number(token()), h = Number(token());
  pos++;
  return { w, h, data: bytes.subarray(pos) };
}

function picture(b64, on, off) {
  const { w, h, data } = readP4(base64Bytes(b64));
  const c = document.createElement('canvas');
  c.width = w; c.height = h;
  const g = c.getContext('2d');
  const img = g.createImageData(w, h);
  const stride = Math.ceil(w / 8);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const bit = (data[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1;
      const [r, gg, b] = bit ? on : off;
      const k = 4 * (y * w + x);
      img.data[k] = r; img.data[k + 1] = gg; img.data[k + 2] = b; img.data[k + 3] = 255;
    }
  }
  g.putImageData(img, 0, 0);
  return c;
}

function shown() { return document.querySelector('input[name="show"]:checked').value; }

function draw() {
  const size = view.clientWidth || 620;
  if (view.width !== size) { view.width = size; view.height = size; }
  ctx.fillStyle = '#fbfaf7';
  ctx.fillRect(0, 0, view.width, view.height);
  const pic = pictures[shown()];
  if (!pic) return;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(pic, cam.x0, cam.y0, view.width * cam.scale, view.height * cam.scale, 0, 0, view.width, view.height);
  $('zoom-label').textContent = cam.scale >= 1
    ? `${measured(cam.scale, 'cell')} per pixel`
    : `${measured(1 / cam.scale, 'pixel')} per cell`;
}

function fit() {
  if (!answer) return;
  cam.scale = Math.max(answer.width, answer.height) / (view.clientWidth || 620);
  cam.x0 = 0; cam.y0 = 0;
  draw();
}

/** Zooms by `factor` around the canvas point (px, py). */
function zoom(factor, px = view.width / 2, py = view.height / 2) {
  const cx = cam.x0 + px * cam.scale, cy = cam.y0 + py * cam.scale;
  cam.scale = Math.min(64, Math.max(1 / 64, cam.scale * factor));
  cam.x0 = cx - px * cam.scale; cam.y0 = cy - py * cam.scale;
  draw();
}

function pan(dx, dy) { cam.x0 += dx * cam.scale; cam.y0 += dy * cam.scale; draw(); }

function setLink(a, b64) {
  if (a.href) URL.revokeObjectURL(a.href);
  if (!b64) { a.removeAttribute('href'); a.setAttribute('aria-disabled', 'true'); return; }
  a.href = URL.createObjectURL(new Blob([base64Bytes(b64)], { type: 'image/x-portable-bitmap' }));
  a.setAttribute('aria-disabled', 'false');
}

// The link: the board's start, size and seed (an uploaded file has no link), and the queens'
// n and seed once drawn.
const link = {};

async function solve(body) {
  say($('status'), 'Solving…');
  $('solve').disabled = true;
  try {
    answer = (await api('live/lights/solve', body)).data;
    pictures.board = picture(answer.board_pbm, [242, 193, 78], [57, 65, 74]);
    pictures.presses = answer.presses_pbm ? picture(answer.presses_pbm, [176, 65, 62], [251, 250, 247]) : null;
    setLink($('dl-board'), answer.board_pbm);
    setLink($('dl-presses'), answer.presses_pbm);
    $('s-size').textContent = `${answer.width} × ${answer.height}`;
    $('s-lights').textContent = count(answer.lights);
    $('s-nullity').textContent = answer.nullity;
    $('s-presses').textContent = answer.solvable ? count(answer.presses) : 'none: not winnable';
    $('s-seconds').textContent = `${number(answer.seconds)} s`;
    $('s-seed').textContent = answer.seed ?? '–';
    for (const k of ['start', 'w', 'h', 'seed']) delete link[k];
    if (body.start !== 'pbm') Object.assign(link, { start: body.start, w: answer.width, h: answer.height, seed: answer.seed });
    toLink(link);
    say($('status'), answer.solvable
      ? `Solved: ${plural(answer.presses, 'press')} ${answer.presses === 1 ? 'switches' : 'switch'} every light off (checked by ${checker}).`
      : 'This board cannot be switched off.', answer.solvable ? 'ok' : 'bad');
    fit();
  } catch (e) { say($('status'), e.message, 'bad'); }
  $('solve').disabled = false;
}

$('solve').onclick = () => {
  const body = { start: document.querySelector('input[name="start"]:checked').value, size: `${$('w').value}x${$('h').value}` };
  const seed = seedInput($('seed'), $('status'));
  if (seed === null) return;
  if (seed !== undefined) body.seed = seed;
  solve(body);
};
$('upload').onchange = async () => {
  const file = $('upload').files[0];
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  solve({ start: 'pbm', pbm: btoa(text) });
};
document.querySelectorAll('input[name="show"]').forEach((r) => { r.onchange = draw; });
$('zoom-in').onclick = () => zoom(0.5);
$('zoom-out').onclick = () => zoom(2);
$('fit').onclick = fit;
view.addEventListener('wheel', (e) => {
  e.preventDefault();
  const r = view.getBoundingClientRect();
  zoom(e.deltaY < 0 ? 0.8 : 1.25, (e.clientX - r.left) * view.width / r.width, (e.clientY - r.top) * view.height / r.height);
}, { passive: false });
let drag = null;
view.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY }; view.setPointerCapture(e.pointerId); });
view.addEventListener('pointermove', (e) => {
  if (!drag) return;
  const k = view.width / view.getBoundingClientRect().width;
  pan((drag.x - e.clientX) * k, (drag.y - e.clientY) * k);
  drag = { x: e.clientX, y: e.clientY };
});
view.addEventListener('pointerup', () => { drag = null; });
view.addEventListener('keydown', (e) => {
  const step = 40;
  const keys = {
    ArrowLeft: () => pan(-step, 0), ArrowRight: () => pan(step, 0),
    ArrowUp: () => pan(0, -step), ArrowDown: () => pan(0, step),
    '+': () => zoom(0.5), '=': () => zoom(0.5), '-': () => zoom(2), '0': fit,
  };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
window.addEventListener('resize', draw);

// n queens by local search, drawn as an image: one dot per queen (row down, column across).
$('queens').onclick = async () => {
  const n = Math.round(Number($('qn').value));
  const body = { n, method: 'local' };
  // A seed the page shows must be exact as a double: without one, the page draws it.
  const seed = seedInput($('qseed'), $('queens-status'));
  if (seed === null) return;
  body.seed = seed ?? newSeed();
  say($('queens-status'), `Searching n = ${count(n)}…`);
  $('queens').disabled = true;
  try {
    const { data } = await api('queens/solve', body);
    const canvas = $('queens-view');
    const g = canvas.getContext('2d');
    const size = canvas.width;
    const img = g.createImageData(size, size);
    img.data.fill(255);
    const scale = size / data.n;
    const dot = Math.max(1, Math.floor(scale));
    data.columns.forEach((c, r) => {
      const x0 = Math.floor((c - 1) * scale), y0 = Math.floor(r * scale);
      for (let dy = 0; dy < dot; dy++) {
        for (let dx = 0; dx < dot; dx++) {
          const k = 4 * ((y0 + dy) * size + x0 + dx);
          img.data[k] = 35; img.data[k + 1] = 38; img.data[k + 2] = 43;
        }
      }
    });
    g.putImageData(img, 0, 0);
    say($('queens-status'), `n = ${count(data.n)}: a solution (checked by ${checker}) in ${number(data.seconds)} s, seed ${data.seed}.`, 'ok');
    Object.assign(link, { qn: data.n, qseed: data.seed });
    toLink(link);
  } catch (e) { say($('queens-status'), e.message, 'bad'); }
  $('queens').disabled = false;
};
// The boards of the link (`?start=random&w=1000&h=1000&seed=7&qn=1000&qseed=3`); without one,
// something to look at from the start: the board the inputs show (a random 500 x 500 board),
// solved, so that the inputs and the board agree (issue 38: they said 1000 x 1000 and showed
// 500 x 500).
fromLink(['w', 'h', 'seed', 'qn', 'qseed']);
const linkedStart = document.querySelector(`input[name="start"][value="${linked.get('start') === 'all_on' ? 'all_on' : 'random'}"]`);
if (linkedStart) linkedStart.checked = true;
$('solve').click();
if (linked.has('qn')) $('queens').click();
