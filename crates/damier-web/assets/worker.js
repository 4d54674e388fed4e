// The library, compiled to WebAssembly (crates/damier-wasm), answering the pages' calls in a
// Web Worker so that the page stays responsive. Messages: { id, path, body } in; { id, answer }
// out (the server's { status, exit, body }), and { id, progress } while a long call runs.
// The module's interface is crates/damier-wasm/src/abi.rs: no generated glue.

let current = 0;
const imports = {
  damier: {
    now_ms: () => performance.now(),
    // 53 random bits: a seed exact as a JavaScript number.
    random53: () => {
      const a = new Uint32Array(2);
      crypto.getRandomValues(a);
      return (a[0] & 0x1fffff) * 2 ** 32 + a[1];
    },
    progress: (done, total) => postMessage({ id: current, progress: { label: 'counting', done, total } }),
  },
};

// The module, compiled as it downloads (and cached compiled by the browser for the next visit)
// where the host serves it as application/wasm; from its bytes otherwise.
async function load() {
  const url = new URL('damier.wasm', self.location.href);
  try {
    return (await WebAssembly.instantiateStreaming(fetch(url), imports)).instance.exports;
  } catch (err) {
    if (!(err instanceof TypeError)) throw err; // a wrong media type (or a failed fetch): by bytes
    const bytes = await (await fetch(url)).arrayBuffer();
    return (await WebAssembly.instantiate(bytes, imports)).instance.exports;
  }
}

// Loaded as soon as the worker starts (the page starts it on load), before the first call; a
// failure is answered to the calls, which load again.
let engine = load();
engine.catch(() => {});

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function answer(x, path, body) {
  const request = encoder.encode(JSON.stringify({ path, body }));
  const at = x.damier_input(request.length);
  new Uint8Array(x.memory.buffer, at, request.length).set(request);
  const n = x.damier_call();
  if (n === 0) return { status: 500, exit: 74, body: { error: 'the browser\'s engine gave no answer' } };
  return JSON.parse(decoder.decode(new Uint8Array(x.memory.buffer, x.damier_output(), n)));
}

// One call at a time, in the order they came.
let queue = Promise.resolve();
self.onmessage = (e) => {
  const { id, path, body } = e.data;
  queue = queue.then(async () => {
    current = id;
    let reply;
    try {
      engine ??= load();
      reply = answer(await engine, path, body);
    } catch (err) {
      // A fault inside the module (it stops on a bug rather than answer wrongly): the next
      // call gets a fresh instance, without the runs this one held.
      engine = null;
      reply = { status: 500, exit: 74, body: { error: `the browser's engine failed: ${err.message}` } };
    }
    postMessage({ id, answer: reply });
  });
};
