// A user's home folder names the user (`/home/alice`, `/Users/alice`, `C:\Users\alice`): quoted
// evidence and prose carry it (an error's stack, a path outside the project, a message that
// names a file), and the memory branch is pushed. Kept text says `~` instead, as a shell would.

// The folder of a home, by platform: after a word boundary that is not part of a longer path
// (`/var/home/x` is not matched at `/home`, nor `C:/Users/x` twice), the user name, then its end.
const POSIX_HOME = /(?<=^|[^\w.~/:\\-]|file:\/\/)\/(?:home|Users)\/(?!Shared(?![\w.-])|Public(?![\w.-]))[A-Za-z0-9_][A-Za-z0-9._-]*(?![\w.-])/g;
// `C:\Users\alice`, its JSON-escaped form `C:\\Users\\alice`, and `C:/Users/alice`.
const WINDOWS_HOME = /(?<![\w])[A-Za-z]:(?:\\\\|\\|\/)Users(?:\\\\|\\|\/)(?!Public(?![\w.-])|Default(?![\w.-]))[A-Za-z0-9_][A-Za-z0-9._ -]*?(?=\\|\/|["'`\s),;:\]}]|$)/g;

/**
 * `text` with every user's home folder written as `~` (`/home/alice/src/a.ts` → `~/src/a.ts`,
 * `C:\Users\alice\x` → `~\x`). Shared folders (`/Users/Shared`, `C:\Users\Public`) stay. Linear;
 * returns the same string when nothing matched.
 *
 * @example foldHomePaths('see /home/alice/proj/a.ts:3') // 'see ~/proj/a.ts:3'
 */
export function foldHomePaths(text: string): string {
  if (!text.includes('/home/') && !text.includes('/Users/') && !/Users[\\/]/.test(text)) return text;
  return text.replace(WINDOWS_HOME, '~').replace(POSIX_HOME, '~');
}

/** `foldHomePaths` over every string of a JSON-ish value (a parsed capsule), copied; other values as they are. */
export function foldHomePathsDeep<T>(value: T): T {
  if (typeof value === 'string') return foldHomePaths(value) as T;
  if (Array.isArray(value)) return value.map((v) => foldHomePathsDeep(v)) as T;
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, foldHomePathsDeep(v)])) as T;
}
