import { applyEdits, appendEdit, detectStyle, removeEdits, type TextEdit } from '../../json-text/json-edit';
import { memberOf, parseJsonTree, type JsonNode } from '../../json-text/json-tree';
import { HOOK_EVENTS } from './hook-events';
import type { HookEventName, HostEventSpec } from '../host';
import { isCapsuleCommand } from './settings-file';

/**
 * Adds the capsule hook groups to a settings file's text, touching only the bytes it adds:
 * a missing `hooks` member or event member is appended after the last one, a group after the
 * event's last group, each in the file's own indentation and spacing; no other byte moves, so
 * key order and formatting stay as the user has them. Events that already have a capsule
 * command are skipped. `text` null is a file that does not exist yet.
 */
export function addHooksToText(text: string | null, commands: Record<HookEventName, string>): { text: string; added: HookEventName[] } {
  const source = text ?? '{}';
  const root = parseJsonTree(source);
  const style = text === null ? { indent: '  ', eol: '\n', colon: ': ', inlineSpace: '' } : detectStyle(source, root);
  const hooks = memberOf(root, 'hooks');
  const added: HookEventName[] = [];
  const newEvents: Array<{ key: string; value: unknown[] }> = [];
  const edits: TextEdit[] = [];
  for (const event of Object.keys(HOOK_EVENTS) as HookEventName[]) {
    const spec: HostEventSpec = HOOK_EVENTS[event];
    const group = { hooks: [{ type: 'command', command: commands[event], timeout: spec.hostTimeoutSec, ...(spec.asyncRewake ? { asyncRewake: true } : {}) }] };
    const groups = memberOf(hooks?.value, event);
    if (groups === undefined) newEvents.push({ key: event, value: [group] });
    else if (groups.value.kind !== 'array' || groups.value.elements.some(hasCapsuleCommand)) continue; // a non-array the host ignores, or wired already
    else edits.push(appendEdit(source, groups.value, [{ value: group }], style, 2));
    added.push(event);
  }
  if (newEvents.length > 0) {
    if (hooks?.value.kind === 'object') edits.push(appendEdit(source, hooks.value, newEvents, style, 1));
    else if (hooks === undefined) edits.push(appendEdit(source, root, [{ key: 'hooks', value: Object.fromEntries(newEvents.map((e) => [e.key, e.value])) }], style, 0));
    else added.splice(0, added.length, ...added.filter((e) => !newEvents.some((n) => n.key === e))); // `hooks` is not an object: leave it
  }
  const out = applyEdits(source, edits);
  return { text: text === null ? `${out}\n` : out, added };
}

/**
 * Removes every capsule hook command from a settings file's text, with the group it sits in
 * when nothing else is left in it, the event member when no group is left, and `hooks` when no
 * event is left; only those bytes (and the separators that belong to them) go.
 */
export function removeHooksFromText(text: string): { text: string; removed: number } {
  const root = parseJsonTree(text);
  const hooks = memberOf(root, 'hooks');
  if (hooks?.value.kind !== 'object') return { text, removed: 0 };
  let removed = 0;
  const inner: TextEdit[] = [];
  const emptied = hooks.value.members.map((event) => {
    if (event.value.kind !== 'array') return false;
    const groupGone = event.value.elements.map((group) => {
      const entries = entriesOf(group);
      const ours = entries.map((e) => isCapsuleCommand(commandOf(e)));
      removed += ours.filter(Boolean).length;
      if (ours.length > 0 && ours.every(Boolean)) return true;
      const list = memberOf(group, 'hooks')?.value;
      if (list && ours.some(Boolean)) inner.push(...removeEdits(list, (k) => ours[k]!));
      return false;
    });
    if (event.value.elements.length > 0 && groupGone.every(Boolean)) return true;
    inner.push(...removeEdits(event.value, (k) => groupGone[k]!));
    return false;
  });
  if (removed === 0) return { text, removed };
  const edits = emptied.every(Boolean) ? removeEdits(root, (k) => (root as Extract<JsonNode, { kind: 'object' }>).members[k] === hooks) : [...inner, ...removeEdits(hooks.value, (k) => emptied[k]!)];
  return { text: applyEdits(text, edits), removed };
}

function entriesOf(group: JsonNode): JsonNode[] {
  const list = memberOf(group, 'hooks')?.value;
  return list?.kind === 'array' ? list.elements : [];
}

function commandOf(entry: JsonNode): unknown {
  const command = memberOf(entry, 'command')?.value;
  return command?.kind === 'scalar' ? command.value : undefined;
}

function hasCapsuleCommand(group: JsonNode): boolean {
  return entriesOf(group).some((e) => isCapsuleCommand(commandOf(e)));
}
