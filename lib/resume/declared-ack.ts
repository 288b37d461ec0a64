import { foldDeclaredLine, inert } from '../capsule/inert';
import { CAPSULE_ID_PLACEHOLDER } from './declared-lines';
import { DECLARED_LINE_MAX, type ExtensionRefusal } from './lifecycle-extension';

/** Every diagnostic of the extension seam starts with this one token, so one grep finds it. */
export const EXTENSION_TOKEN = 'LIFECYCLE-EXTENSION:';

/** What loading the project's declaration found. */
export type ExtensionState =
  | { state: 'none' }
  | { state: 'accepted'; path: string; extension: import('./lifecycle-extension').LifecycleExtension }
  | { state: 'refused'; path: string; refusal: ExtensionRefusal };

/** The one line a refused declaration produces, in the procedure and in the error log. */
export function declarationIgnoredLine(path: string, refusal: ExtensionRefusal): string {
  return `${EXTENSION_TOKEN} declaration ignored: ${inert(path, { max: 200 })}: ${foldDeclaredLine(refusal.message)}`;
}

/**
 * Resolves an ack template against the loaded capsule id. A template with `{capsule_id}` and no
 * capsule renders nothing (a degraded resume must never invite a fabricated id), and neither
 * does one whose substituted length crosses the cap; both say so in one `not rendered` line.
 *
 * @example resolveAck('resume_ack', 'notify: resumed {capsule_id}', '01J…') // { ok: true, line: 'notify: resumed 01J…' }
 */
export function resolveAck(field: string, template: string, capsuleId: string | null): { ok: true; line: string } | { ok: false; diagnostic: string } {
  const notRendered = (why: string) => ({ ok: false as const, diagnostic: `${EXTENSION_TOKEN} ${field} not rendered: ${why}` });
  if (!template.includes(CAPSULE_ID_PLACEHOLDER)) return { ok: true, line: foldDeclaredLine(template) };
  if (capsuleId === null || capsuleId === '') {
    return notRendered(`it carries ${CAPSULE_ID_PLACEHOLDER} and no capsule was loaded, so there is no id to give it`);
  }
  const line = foldDeclaredLine(template.split(CAPSULE_ID_PLACEHOLDER).join(capsuleId));
  if (line.length > DECLARED_LINE_MAX) {
    return notRendered(`with the id substituted it is ${line.length} characters, over the ${DECLARED_LINE_MAX} cap`);
  }
  return { ok: true, line };
}
