#!/usr/bin/env bash
# bench/tokens.sh REPO [ENCODING] — check taskctl's token counts against
# OpenAI's tiktoken, file by file, on a whole repository, and time both.
#
# taskctl packs REPO (a task with <path>**/*</path>, json output, the token
# cache cleared first) and reports every file's content and its token count.
# tiktoken (npm tiktoken@1.0.22: the Rust library compiled to WebAssembly,
# the counter repomix uses) counts each of those contents again with
# encode_ordinary. Every file whose two counts differ is listed; the exit
# status is 1 if any does.
#
# Times: taskctl's is the whole pack (walk, read, decode, secret scan,
# count, render) on every core; tiktoken's is its counting alone, on one
# thread, once the contents are in memory and the vocabulary is loaded. The
# ratio is therefore in tiktoken's favour.
#
# Needs node and npm (tiktoken is installed into a scratch directory).
# TASKCTL=/path/to/taskctl skips the build and uses that binary instead.
set -euo pipefail
repo=${1:?usage: bench/tokens.sh REPO [ENCODING]}
enc=${2:-o200k_base}
repo=$(cd "$repo" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for c in node npm; do
  command -v "$c" >/dev/null || { echo "bench/tokens.sh needs $c" >&2; exit 1; }
done
taskctl=${TASKCTL:-}
if [ -z "$taskctl" ]; then
  "$here/scripts/build" "$tmp/taskctl"
  taskctl=$tmp/taskctl
fi
(cd "$tmp" && npm install --silent --no-audit --no-fund --prefix "$tmp" tiktoken@1.0.22 >/dev/null)

rm -rf "$repo/.taskctl/cache"
t0=$(date +%s%N)
# Exit status 3 (some files left out, e.g. binaries) is expected.
"$taskctl" --project-dir "$repo" assemble "$here/bench/pack.xml" --output json \
  --max-files 10000000 --tokenizer "$enc" >"$tmp/pack.json" 2>"$tmp/err" || [ $? -eq 3 ] ||
  { cat "$tmp/err" >&2; exit 1; }
t1=$(date +%s%N)

cat > "$tmp/check.js" <<'JS'
const fs = require("fs");
const { get_encoding } = require(process.argv[2] + "/node_modules/tiktoken");
const doc = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const taskctlMs = Number(process.argv[5]);
const files = doc.data.files.filter(f => !f.binary && typeof f.content === "string");
const enc = get_encoding(process.argv[4]);
let ours = 0, theirs = 0, bytes = 0, bad = 0;
const t0 = process.hrtime.bigint();
const counts = files.map(f => enc.encode_ordinary(f.content).length);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
files.forEach((f, i) => {
  ours += f.tokens; theirs += counts[i]; bytes += Buffer.byteLength(f.content);
  if (f.tokens !== counts[i]) {
    if (bad++ < 20) console.log(`differs: ${f.rel_path}: taskctl ${f.tokens}, tiktoken ${counts[i]}`);
  }
});
console.log(`files compared:   ${files.length} (${(bytes / 1e6).toFixed(1)} MB of content)`);
console.log(`tokens:           taskctl ${ours}, tiktoken ${theirs}; files that differ: ${bad}`);
console.log(`taskctl pack:     ${taskctlMs.toFixed(0)} ms (everything, all cores)`);
console.log(`tiktoken count:   ${ms.toFixed(0)} ms (counting only, one thread)`);
console.log(`tiktoken / taskctl: ${(ms / taskctlMs).toFixed(1)}x`);
process.exit(bad ? 1 : 0);
JS
node "$tmp/check.js" "$tmp" "$tmp/pack.json" "$enc" "$(( (t1 - t0) / 1000000 ))"
