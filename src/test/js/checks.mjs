// The check the SDK scripts make of each answer: a failed one prints "FAILED <what>[: <detail as JSON>]" on stderr
// and exits 1 (the Java test shows it); every check is counted, and the count goes in the script's summary line.
let count = 0;

/** Passes when `ok`; else prints "FAILED what" (with `detail` as JSON, when given) and exits 1. */
export function check(ok, what, detail) {
  count++;
  if (!ok) {
    console.error("FAILED " + what + (detail === undefined ? "" : ": " + JSON.stringify(detail)));
    process.exit(1);
  }
}

/** How many checks were made so far. */
export function checkCount() {
  return count;
}
