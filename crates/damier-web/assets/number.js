// Numbers as the README's Conventions write them, the same on every page as in the CLI: the one
// place the pages turn a number into text (no page calls toFixed, toPrecision, toExponential or
// toLocaleString; a test in crates/damier-web/src/assets.rs holds them to it).

/**
 * A measured quantity (a time, a rate, a mean, a projection), exactly as the library's
 * `damier::util::number` writes it: three significant digits, plain from 0.001 to 99 999
 * (`18`, `3048`, `0.0123`), scientific notation beyond (`1.34e5`, `2.5e-4`), trailing zeros
 * dropped, ties to even as Rust's formatting rounds them (JavaScript's own rounds them up:
 * 1.125 is `1.12` here, as in the CLI). The test
 * `web::numbers::the_pages_write_numbers_as_the_library_does` runs a table of values through
 * both.
 */
export function number(v) {
  if (v === 0) return '0';
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  const a = Math.abs(v);
  const sign = v < 0 ? '-' : '';
  if (a >= 1e-3 && a < 99_999.5) {
    const decimals = Math.max(0, 2 - Math.floor(Math.log10(a)));
    return trimmed(sign + fixed(a, decimals));
  }
  const [mantissa, exponent] = exponential(a).split('e');
  return `${sign}${trimmed(mantissa)}e${Number(exponent)}`;
}

/** An exact count in full, with no separators (`666090624`): a number or a BigInt. */
export function count(k) {
  return typeof k === 'bigint' ? k.toString() : String(k);
}

/**
 * `k noun`, the noun in the plural unless k is 1 (the CLI's `util::plural`): "1 solution",
 * "0 solutions", "2 presses". k is a count (written in full) or the text of a measured number.
 */
export function plural(k, noun) {
  const text = typeof k === 'string' ? k : count(k);
  if (text === '1') return `1 ${noun}`;
  const es = /(s|x|sh|ch)$/.test(noun);
  return `${text} ${noun}${es ? 'es' : 's'}`;
}

/** A measured quantity with its unit, in the plural unless it reads 1: "2.5 cells", "1 cell". */
export function measured(v, noun) {
  return plural(number(v), noun);
}

function trimmed(s) {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/**
 * The exact decimal expansion of `a` (finite, positive): a double from 0.001 up has at most 62
 * binary fraction digits, so 100 decimals hold it exactly; from 10^21 up it is an integer.
 */
function exact(a) {
  return a < 1e21 ? a.toFixed(100) : BigInt(a).toString();
}

/** Whether `tail` (the digits after the last one kept) is exactly half a unit: 5 then zeros. */
const isHalf = (tail) => /^50*$/.test(tail);

/** `a` (0.001 <= a < 99 999.5) with `d` decimals, ties to even. */
function fixed(a, d) {
  const e = exact(a);
  const point = e.indexOf('.');
  const kept = e.slice(0, d ? point + 1 + d : point);
  const tail = e.slice(point + 1 + d);
  // toFixed rounds a tie up; to even keeps the kept digits when the last one is even.
  if (isHalf(tail) && Number(kept.at(-1)) % 2 === 0) return kept;
  return a.toFixed(d);
}

/**
 * `a` (positive) as d.dde±x, ties to even. Below 0.001 no double is a tie at three significant
 * digits (a = m / 2^k with k >= 10 has at least as many significant digits as 5^k, seven), so
 * only the large ones are checked.
 */
function exponential(a) {
  if (a >= 1) {
    const [whole, fraction = ''] = exact(a).split('.');
    if (isHalf(whole.slice(3) + fraction) && Number(whole[2]) % 2 === 0) {
      return `${whole[0]}.${whole.slice(1, 3)}e${whole.length - 1}`;
    }
  }
  return a.toExponential(2);
}
