declare const __VERSION__: string | undefined;
/** The package version, injected by the build into every bundle; `dev` when run from source. */
export const VERSION: string = typeof __VERSION__ === 'string' ? __VERSION__ : 'dev';
