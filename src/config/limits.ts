/**
 * The most config text read, all files together. While it is read the parsed YAML costs about 60 times the text
 * (yaml's syntax tree, then its document, then the JS copy), and V8 lets the heap grow past that before collecting:
 * measured (docs/benchmark.md, `npm run bench:cap`), a config of 5 MB (52,000 labels written one a line, or 35,000
 * in block style) plans in under 500 MB, one of 6 MB needs 500 MB, one of 10 MB 700 MB to 1.2 GB. 5 MB is still far
 * beyond a hand-written config. The sandbox's --seed, YAML read the same way, has the same bound.
 */
export const MAX_CONFIG_BYTES = 5 * 1024 * 1024;

/** "4.8 MB". */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
