// The lab without a server (the static site, docs/web.md): every call of a page is answered by
// the library compiled to WebAssembly, in a Web Worker (worker.js), with the server's answer
// ({ status, exit, body }). common.js uses this module when the page carries
// <meta name="damier-local">, which only the exported pages do.

let worker = null;
let next = 1;
const pending = new Map(); // id -> { resolve, onProgress }

/** Ends the worker (with every run it held) and answers every pending call with `error`. */
function end(error) {
  worker?.terminate();
  worker = null;
  for (const p of pending.values()) p.resolve({ status: 500, exit: 74, body: { error } });
  pending.clear();
}

function start() {
  // The first worker was started by the page's head (assets.rs, `LOCAL_MARK`), before its
  // scripts load: it is compiling the module already.
  worker = globalThis.damierWorker ?? new Worker(new URL('./worker.js', import.meta.url));
  globalThis.damierWorker = null;
  worker.onmessage = (e) => {
    const { id, progress, answer } = e.data;
    const p = pending.get(id);
    if (!p) return;
    if (progress) { p.onProgress?.(progress); return; }
    pending.delete(id);
    p.resolve(answer);
  };
  worker.onerror = (e) => { e.preventDefault(); end(`the browser's engine failed: ${e.message || 'no message'}`); };
}

/**
 * Answers `path` (as after /api/) with `body` in the worker: resolves to { status, exit, body }.
 * onProgress({ label, done, total }) while a long call runs. Aborting `signal` stops the call
 * at once: the worker is ended (a computation cannot be interrupted otherwise) and a fresh one
 * answers the next call; the automaton runs it held are gone with it.
 */
export function call(path, body, onProgress, signal) {
  if (!worker) start();
  const id = next++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, onProgress });
    signal?.addEventListener('abort', () => {
      if (!pending.has(id)) return;
      pending.delete(id);
      end('stopped, with the computation before it');
      reject(new DOMException('Aborted', 'AbortError'));
    }, { once: true });
    worker.postMessage({ id, path, body });
  });
}

// Taken over as the page loads (this module is imported by every exported page): the worker
// fetches and compiles the module before the first call.
start();
