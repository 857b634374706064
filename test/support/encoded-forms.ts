/**
 * The encoded forms a server or proxy may echo a credential in (issue 28, class 2), as the hostile-server probe
 * used them: 12 forms, each as a (mostly Go) server writes it.
 */
export const ENCODED_FORMS: Record<string, (v: string) => string> = {
  'URL-encoded': (v) => encodeURIComponent(v),
  'URL-encoded, lower-case hex': (v) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  '+-encoded (a form body)': (v) => new URLSearchParams({ v }).toString().slice(2),
  base64: (v) => Buffer.from(v).toString('base64'),
  'base64 of user:value (Basic)': (v) => Buffer.from(`someone:${v}`).toString('base64'),
  'base64url, unpadded': (v) => Buffer.from(`x${v}`).toString('base64url'),
  hex: (v) => Buffer.from(v).toString('hex'),
  'HTML-escaped': (v) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;').replace(/\+/g, '&#43;'),
  'JSON-escaped (Go)': (v) => JSON.stringify(v).slice(1, -1).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  'upper-case': (v) => v.toUpperCase(),
  'lower-case': (v) => v.toLowerCase(),
  'cut to its first 70%': (v) => v.slice(0, Math.ceil(v.length * 0.7)),
};
