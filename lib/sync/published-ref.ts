/**
 * Where the memory lives on a remote: under `refs/capsules/`, which no default refspec fetches
 * (a clone takes `refs/heads/*` and tags), the way notes and pull-request refs stay out of a
 * plain `git clone`. Only `git capsule sync` and the opt-in git hooks move it.
 */
export const PUBLISHED_NAMESPACE = 'refs/capsules';

/**
 * The remote ref a memory ref is published as: `refs/heads/<name>` and `refs/tags/<name>` (which
 * clones fetch) become `refs/capsules/<name>`; a ref already outside them keeps its name.
 *
 * @example publishedRef('refs/heads/capsules') // 'refs/capsules/capsules'
 */
export function publishedRef(localRef: string): string {
  const m = /^refs\/(?:heads|tags)\/(.+)$/.exec(localRef);
  return m ? `${PUBLISHED_NAMESPACE}/${m[1]}` : localRef;
}

/**
 * The ref git-capsule published to before it moved out of the default refspecs (the memory ref's
 * own name, `<ref>:<ref>`), or null when the two are the same. A remote may still hold it:
 * everything on it is merged in, and nothing is ever written to it again.
 */
export function legacyRemoteRef(localRef: string): string | null {
  return publishedRef(localRef) === localRef ? null : localRef;
}
