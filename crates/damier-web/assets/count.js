// Counting: an estimate (queens estimate), a bounded count with live progress (the stream of
// queens count), and the read-only view of the journal the server was started with.
import { api, intInput, say, countWithProgress, newSeed, seedInput, linked, toLink, serverless } from './common.js';
import { count, measured, number, plural } from './number.js';

const $ = (id) => document.getElementById(id);

// A duration in the unit that reads best, its number as the README writes numbers.
const duration = (s) => {
  if (s === null || s === undefined || !Number.isFinite(s)) return '–';
  if (s < 120) return `${number(s)} s`;
  if (s < 7200) return `${number(s / 60)} min`;
  if (s < 172800) return `${number(s / 3600)} h`;
  return measured(s / 86400, 'day');
};

$('estimate').onclick = async () => {
  const body = { n: intInput($('e-n'), 4, 28), samples: intInput($('e-samples'), 1, 1000), queries: $('e-queries').value.trim() || 'all' };
  // A seed the page shows must be exact as a double: without one, the page draws it.
  const seed = seedInput($('e-seed'), $('estimate-status'));
  if (seed === null) return;
  body.seed = seed ?? newSeed();
  $('estimate').disabled = true;
  say($('estimate-status'), `Timing ${plural(body.samples, 'random task')} of n = ${body.n}…`);
  try {
    const { data } = await api('queens/estimate', body);
    $('e-tasks').textContent = count(data.tasks);
    $('e-hours').textContent = `${number(data.core_hours)} (95%: ${number(data.low)} to ${number(data.high)})`;
    $('e-solutions').textContent = `${number(data.solutions)} (${number(data.solutions_low)} to ${number(data.solutions_high)})`;
    $('e-known').textContent = data.known_solutions === undefined ? 'not known'
      : `${count(data.known_solutions)} (${data.known_inside ? 'inside' : 'outside'} the interval)`;
    say($('estimate-status'), `n = ${data.n}: about ${duration(data.core_hours * 3600)} of one core (seed ${data.seed}).`,
      data.known_inside === false ? 'bad' : 'ok');
    toLink({ n: body.n, samples: body.samples, queries: body.queries, seed: data.seed, count: $('count-n').value });
  } catch (e) { say($('estimate-status'), e.message, 'bad'); }
  $('estimate').disabled = false;
};

countWithProgress($('count-n'), $('count'), $('cancel'), $('progress'), $('count-status'));
$('count-n').addEventListener('change', () => toLink({ ...Object.fromEntries(new URLSearchParams(location.search)), count: $('count-n').value }));

// The estimate of the link (`?n=14&samples=20&queries=all&seed=7&count=12`): its fields filled,
// and run again when the link has its seed (the same seed gives the same tasks).
for (const [key, id] of [['n', 'e-n'], ['samples', 'e-samples'], ['queries', 'e-queries'], ['seed', 'e-seed'], ['count', 'count-n']]) {
  if (linked.has(key)) $(id).value = linked.get(key);
}
if (linked.has('seed')) $('estimate').click();

function chart(recent) {
  const canvas = $('j-chart');
  const g = canvas.getContext('2d');
  g.clearRect(0, 0, canvas.width, canvas.height);
  if (!recent.length) return;
  const max = Math.max(...recent.map(([, s]) => s)) || 1;
  const w = canvas.width / recent.length;
  g.fillStyle = '#2f6f73';
  recent.forEach(([, s], i) => {
    const h = (s / max) * (canvas.height - 16);
    g.fillRect(i * w, canvas.height - h, Math.max(1, w - 1), h);
  });
  g.fillStyle = '#666b73';
  g.font = '12px system-ui, sans-serif';
  g.fillText(`max ${number(max)} s per task`, 4, 12);
}

async function refreshJournal() {
  try {
    const { data } = await api('live/journal', {});
    $('j-file').textContent = data.file;
    $('j-n').textContent = data.n;
    $('j-done').textContent = `${count(data.done)} of ${count(data.tasks)} (${count(data.left)} left)`;
    $('j-rate').textContent = data.rate ? `${number(data.rate)} tasks/s` : '–';
    $('j-eta').textContent = data.left === 0 ? 'done' : duration(data.eta_seconds);
    $('j-total').textContent = count(BigInt(data.partial_total));
    $('j-seconds').textContent = duration(data.task_seconds);
    $('j-progress').max = data.tasks; $('j-progress').value = data.done;
    chart(data.recent);
    say($('journal-status'), data.left === 0 ? 'The count is complete.' : '', 'ok');
    return true;
  } catch (e) {
    // No journal on this server (404): a sentence saying how to get one, not an empty panel.
    const none = e.status === 404;
    $('journal-view').hidden = none;
    $('journal-note').hidden = none;
    $('journal-none').hidden = !none;
    if (!none) say($('journal-status'), e.message, 'bad');
    return !none;
  }
}

// The static site has no server, so no journal to follow (its panel is hidden there).
(async function poll() {
  if (!serverless && (await refreshJournal())) setTimeout(poll, 2000);
})();
