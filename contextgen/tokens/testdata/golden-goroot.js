// Prints {"path", "sha256", "o200k_base", "cl100k_base"} for every regular,
// valid-UTF-8 file under DIR (sorted), counted by OpenAI's tiktoken
// (encode_ordinary). Regenerate tiktoken-goroot.jsonl (every eighth file) with:
//   npm install tiktoken@1 && node golden-goroot.js "$(go env GOROOT)/src" | awk 'NR % 8 == 1' > tiktoken-goroot.jsonl
const { get_encoding } = require("tiktoken");
const fs = require("fs"), path = require("path"), crypto = require("crypto");
const root = process.argv[2];
const o = get_encoding("o200k_base"), c = get_encoding("cl100k_base");
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p); else if (e.isFile()) files.push(p);
  }
})(root);
const dec = new TextDecoder("utf-8", { fatal: true });
for (const f of files) {
  const buf = fs.readFileSync(f);
  if (buf.length > (1 << 20)) continue;
  let s;
  try { s = dec.decode(buf); } catch { continue; }
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) continue; // TextDecoder strips a BOM
  const sha = crypto.createHash("sha256").update(buf).digest("hex");
  console.log(JSON.stringify({ path: path.relative(root, f), sha256: sha, o200k_base: o.encode_ordinary(s).length, cl100k_base: c.encode_ordinary(s).length }));
}
