// The escaping of names and values for every output (text, markdown, JSON, YAML, messages). It lives in
// src/inert.ts, which imports nothing, so that the HTTP client's messages (src/gitea) can use it without
// an import cycle between folders; renderers and the action import it from here.
export * from '../inert.js';
