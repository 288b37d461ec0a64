import type * as Yaml from 'yaml';

let yaml: typeof Yaml | undefined;

/**
 * The YAML library, loaded on first use: it is most of every bundle, and the paths that never
 * parse or render YAML (selection, most resumes, UserPromptSubmit) should not pay for running it.
 */
export function loadYaml(): typeof Yaml {
  // A lazy require: this module must not load at start.
  yaml ??= require('yaml') as typeof Yaml;
  return yaml;
}
