// Reads a JSON array of strings on stdin and prints one JSON line per string
// with its token counts by OpenAI's tiktoken (encode_ordinary):
//   {"text": ..., "o200k_base": n, "cl100k_base": m}
// Regenerate tiktoken-strings.jsonl with:
//   go test -v -run TestWriteStrings . -args -strings | grep "^\[" > s.json
//   npm install tiktoken@1 && node golden-strings.js < s.json > tiktoken-strings.jsonl
const { get_encoding } = require("tiktoken");
const o = get_encoding("o200k_base"), c = get_encoding("cl100k_base");
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  for (const s of JSON.parse(input)) {
    console.log(JSON.stringify({ text: s, o200k_base: o.encode_ordinary(s).length, cl100k_base: c.encode_ordinary(s).length }));
  }
});
