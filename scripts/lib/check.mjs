// The check() and tally that scripts/sdk-check and scripts/agent-check
// print their results with: one line a check, "ok", "FAIL" or, for a
// failure listed as a known defect, "KNOWN" (which fails the run only under
// STRICT=1); a known check that passes says to take it off the list.

// checker returns check(name, fn), which runs fn and prints its line, and
// the tally of the lines printed. knownDefect(name) is the known defect of
// a check, or undefined; a failure's message is folded onto one line and
// cut at clip characters.
export function checker(knownDefect, strict, clip = Infinity) {
  const tally = { ok: 0, failed: 0, known: 0 };
  function check(name, fn) {
    let err;
    try {
      fn();
    } catch (e) {
      err = e;
    }
    const known = knownDefect(name);
    if (!err) {
      tally.ok++;
      console.log(`ok    ${name}${known ? '  (listed as KNOWN, now passes: take it off the list)' : ''}`);
      return;
    }
    const msg = String(err.message).split('\n').map((l) => l.trim()).filter(Boolean).join(' ').slice(0, clip);
    if (known && !strict) {
      tally.known++;
      console.log(`KNOWN ${name}: ${msg} [${known}]`);
    } else {
      tally.failed++;
      console.log(`FAIL  ${name}: ${msg}`);
    }
  }
  return { tally, check };
}
