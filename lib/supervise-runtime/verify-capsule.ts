import { isCapsuleError } from '../errors/capsule-error';
import { openStore } from '../store/open-store';

/** What the memory branch says about an announced capsule: ok, or why it does not count. */
export type CapsuleCheck = { ok: true } | { ok: false; why: string };

/**
 * Checks that the capsule the agent announced (`capsule written: <id>`) is on the memory branch
 * and still active, so the resume after `/clear` can hand it back: an agent that announces an
 * id it never wrote, or one a resume already consumed, does not count as having written one.
 * Never throws: a store that cannot be read is a reason.
 */
export async function verifyCapsule(cwd: string, env: NodeJS.ProcessEnv, id: string): Promise<CapsuleCheck> {
  try {
    const store = await openStore({ cwd, env });
    try {
      const record = await store.readCapsule(id);
      if (record.id.toUpperCase() !== id.toUpperCase()) return { ok: false, why: `it is only a prefix of capsule ${record.id}` };
      return record.status === 'active' ? { ok: true } : { ok: false, why: `its status is ${record.status}, not active` };
    } finally {
      await store.close();
    }
  } catch (err) {
    if (isCapsuleError(err, 'NOT_FOUND')) return { ok: false, why: 'no such capsule is on the memory branch' };
    const code = isCapsuleError(err) ? err.code : 'ERROR';
    return { ok: false, why: `the memory branch could not be read (${code}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)})` };
  }
}
