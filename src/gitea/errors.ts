/** A non-2xx answer (or no answer) from the server, worded for a user. */
export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number | undefined,
    readonly serverMessage: string,
    readonly object?: string,
  ) {
    super(ApiError.describe(method, path, status, serverMessage, object));
    this.name = 'ApiError';
  }

  static describe(method: string, path: string, status: number | undefined, serverMessage: string, object?: string): string {
    const what = object ? `${object}: ` : '';
    const where = `${method} /api/v1/${decodeForDisplay(path)}`;
    if (status === undefined) return `${what}${where} failed: ${serverMessage}`;
    return `${what}${where} → ${status} ${statusText(status)}${serverMessage ? `: ${serverMessage}` : ''}${hint(status, serverMessage)}`;
  }
}

function decodeForDisplay(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

const texts: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  409: 'Conflict', 412: 'Precondition Failed', 422: 'Unprocessable Entity', 423: 'Locked', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
  307: 'Temporary Redirect', 308: 'Permanent Redirect', 301: 'Moved Permanently', 302: 'Found',
};

function statusText(status: number): string {
  return texts[status] ?? '';
}

function hint(status: number, message: string): string {
  if (status === 401) return ' (the token is missing or invalid: set FORGEFORM_TOKEN or --token-file)';
  if (status === 403) {
    if (/site admin/i.test(message)) return ' (the token must belong to a site administrator)';
    if (/scope/i.test(message)) return ' (give the token the scope named above)';
    if (/owner|admin/i.test(message)) return ' (the token needs admin rights on this repository or organisation)';
    return ' (the token lacks a permission this call needs)';
  }
  if (status >= 300 && status < 400) return ' (the name was renamed on the server; update the config)';
  return '';
}
