import {
  ANY_LAYOUT_DOCUMENT, ANY_LAYOUT_EVENT, ANY_LAYOUT_STATUS_FILE, ANY_LAYOUT_TOMBSTONE,
  TOMBSTONE, V1_CAPSULE_FILE, V2_CAPSULE_FILE, V3_CAPSULE_ENTRY, V3_CAPSULE_FILE, V3_TOMBSTONE,
} from '../../lib/store/layout-paths';
import { isSafeId } from '../../lib/store/memory-format';

const ID = '01JDQ70000000000000000000A';
const EVENT = '20261129T211500123Z-laptop-paused';
const V3 = `capsules/2026-11-29/${ID}`;
const V2 = `capsules/2026/11/29/${ID}`;
const V1 = `capsules/2026/11/${ID}`;

/** The groups a pattern captures from `path`, or null when it does not match. */
function groups(pattern: RegExp, path: string): string[] | null {
  const m = pattern.exec(path);
  return m === null ? null : m.slice(1);
}

describe('V3_CAPSULE_FILE', () => {
  it("reads a format-3 capsule file as its directory, id and rest", () => {
    expect(groups(V3_CAPSULE_FILE, `${V3}/capsule.md`)).toEqual([V3, ID, 'capsule.md']);
    expect(groups(V3_CAPSULE_FILE, `${V3}/status/${EVENT}`)).toEqual([V3, ID, `status/${EVENT}`]);
    expect(groups(V3_CAPSULE_FILE, `capsules/10889-01-01/${ID}/capsule.md`)).toEqual([`capsules/10889-01-01/${ID}`, ID, 'capsule.md']);
  });

  it('takes any two digits for month and day, so a near shape is still moved to its id\'s day', () => {
    expect(groups(V3_CAPSULE_FILE, `capsules/2026-13-45/${ID}/capsule.md`)?.[1]).toBe(ID);
  });

  it('matches no format-2 or format-1 path, no other digit count and no other top folder', () => {
    for (const path of [`${V2}/capsule.md`, `${V1}/capsule.md`, `capsules/2026-1-29/${ID}/capsule.md`, `capsules/226-11-29/${ID}/capsule.md`,
      `capsules/202611-11-29/${ID}/capsule.md`, `capsules/2026_11_29/${ID}/capsule.md`, `retired/2026-11-29/${ID}/capsule.md`, `x/${V3}/capsule.md`]) {
      expect(groups(V3_CAPSULE_FILE, path)).toBeNull();
    }
  });

  it('wants a rest of one line after the directory', () => {
    for (const path of [V3, `${V3}/`, `${V3}/a\nb`, `${V3}/\n`]) expect(groups(V3_CAPSULE_FILE, path)).toBeNull();
  });

  it('leaves the id to the caller: an extra level, `..` or an unsafe name is captured, and isSafeId refuses it', () => {
    for (const [path, id] of [[`${V3.replace(ID, 'x')}/${ID}/capsule.md`, 'x'], ['capsules/2026-11-29/../capsule.md', '..'], ['capsules/2026-11-29/a b;c/capsule.md', 'a b;c']] as const) {
      expect(groups(V3_CAPSULE_FILE, path)?.[1]).toBe(id);
      expect(isSafeId(id)).toBe(false);
    }
  });
});

describe('V3_CAPSULE_ENTRY', () => {
  it('reads the id of anything below a format-3 capsule directory, whatever follows the slash', () => {
    for (const rest of ['capsule.md', `status/${EVENT}`, '', 'a\nb']) expect(groups(V3_CAPSULE_ENTRY, `${V3}/${rest}`)).toEqual([ID]);
  });

  it('matches no directory without its slash, and no older layout', () => {
    for (const path of [V3, `${V2}/capsule.md`, `${V1}/capsule.md`, `capsules/2026-11-9/${ID}/capsule.md`]) expect(groups(V3_CAPSULE_ENTRY, path)).toBeNull();
  });
});

describe('V2_CAPSULE_FILE', () => {
  it('reads a format-2 capsule file as its directory, id and rest', () => {
    expect(groups(V2_CAPSULE_FILE, `${V2}/capsule.md`)).toEqual([V2, ID, 'capsule.md']);
    expect(groups(V2_CAPSULE_FILE, `${V2}/status/${EVENT}`)).toEqual([V2, ID, `status/${EVENT}`]);
    expect(groups(V2_CAPSULE_FILE, `capsules/0000/00/00/${ID}/capsule.md`)?.[1]).toBe(ID);
  });

  it('matches no format-3 or format-1 path and no other digit count', () => {
    for (const path of [`${V3}/capsule.md`, `${V1}/capsule.md`, `${V1}/status/${EVENT}`, `capsules/2026/11/9/${ID}/capsule.md`, `capsules/2026/1/29/${ID}/capsule.md`, `capsules/26/11/29/${ID}/capsule.md`, `${V2}`, `${V2}/a\nb`]) {
      expect(groups(V2_CAPSULE_FILE, path)).toBeNull();
    }
  });
});

describe('V1_CAPSULE_FILE', () => {
  it('reads a format-1 capsule file as its directory, id and rest', () => {
    expect(groups(V1_CAPSULE_FILE, `${V1}/capsule.md`)).toEqual([V1, ID, 'capsule.md']);
    expect(groups(V1_CAPSULE_FILE, `${V1}/status/${EVENT}`)).toEqual([V1, ID, `status/${EVENT}`]);
  });

  it('reads a format-2 day folder as an id (so it is tried after V2_CAPSULE_FILE), which isSafeId refuses', () => {
    expect(groups(V1_CAPSULE_FILE, `${V2}/capsule.md`)).toEqual(['capsules/2026/11/29', '29', `${ID}/capsule.md`]);
    expect(isSafeId('29')).toBe(false);
  });

  it('matches no format-3 path and no other digit count', () => {
    for (const path of [`${V3}/capsule.md`, `capsules/2026/1/${ID}/capsule.md`, `capsules/202/11/${ID}/capsule.md`, `capsules/2026/111/${ID}/capsule.md`, V1, `${V1}/a\nb`]) {
      expect(groups(V1_CAPSULE_FILE, path)).toBeNull();
    }
  });
});

describe('V3_TOMBSTONE and TOMBSTONE', () => {
  it("read the id of format 3's tombstone", () => {
    expect(groups(V3_TOMBSTONE, `retired/2026-11-29/${ID}`)).toEqual([ID]);
    expect(groups(TOMBSTONE, `retired/2026-11-29/${ID}`)).toEqual([ID]);
  });

  it("only TOMBSTONE reads format 2's `retired/<yyyy>/<mm>/<dd>/<id>`", () => {
    expect(groups(TOMBSTONE, `retired/2026/11/29/${ID}`)).toEqual([ID]);
    expect(groups(V3_TOMBSTONE, `retired/2026/11/29/${ID}`)).toBeNull();
  });

  it('match no month folder, no extra level, no capsule path and no other digit count', () => {
    for (const path of [`retired/2026/11/${ID}`, `retired/2026-11-29/${ID}/x`, `retired/2026-11-29/`, `retired/${ID}`, `capsules/2026-11-29/${ID}`,
      `retired/2026-11-9/${ID}`, `retired/2026/11/9/${ID}`, `retired/2026/1/29/${ID}`, `retired/202-11-29/${ID}`, `x/retired/2026-11-29/${ID}`]) {
      expect(groups(V3_TOMBSTONE, path)).toBeNull();
      expect(groups(TOMBSTONE, path)).toBeNull();
    }
  });

  it('leave the id to the caller', () => {
    expect(groups(TOMBSTONE, 'retired/2026-11-29/..')).toEqual(['..']);
    expect(groups(V3_TOMBSTONE, 'retired/2026-11-29/a b')).toEqual(['a b']);
  });
});

describe('ANY_LAYOUT_DOCUMENT', () => {
  it("reads the id of every format's document", () => {
    for (const dir of [V3, V2, V1]) expect(groups(ANY_LAYOUT_DOCUMENT, `${dir}/capsule.md`)).toEqual([ID]);
  });

  it('takes folders of any name, one to three of them', () => {
    expect(groups(ANY_LAYOUT_DOCUMENT, `capsules/x/${ID}/capsule.md`)).toEqual([ID]);
    expect(groups(ANY_LAYOUT_DOCUMENT, `${V3}/status/capsule.md`)).toEqual(['status']);
    for (const path of [`capsules/${ID}/capsule.md`, `capsules/a/b/c/d/${ID}/capsule.md`, `${V3}/capsule.mdx`, `${V3}/capsule_md`, `${V3}/status/${EVENT}`, `retired/2026-11-29/${ID}/capsule.md`, `${V3}//capsule.md`]) {
      expect(groups(ANY_LAYOUT_DOCUMENT, path)).toBeNull();
    }
  });
});

describe('ANY_LAYOUT_STATUS_FILE', () => {
  it("reads the id and name of every format's status file, event or not", () => {
    for (const dir of [V3, V2, V1]) expect(groups(ANY_LAYOUT_STATUS_FILE, `${dir}/status/${EVENT}`)).toEqual([ID, EVENT]);
    expect(groups(ANY_LAYOUT_STATUS_FILE, `${V3}/status/not-an-event`)).toEqual([ID, 'not-an-event']);
  });

  it('matches no nested folder, no capsule without a shard and no document', () => {
    for (const path of [`${V3}/status/x/${EVENT}`, `${V3}/status/`, `capsules/${ID}/status/${EVENT}`, `capsules/a/b/c/d/${ID}/status/${EVENT}`, `${V3}/capsule.md`, `${V3}/statuses/${EVENT}`]) {
      expect(groups(ANY_LAYOUT_STATUS_FILE, path)).toBeNull();
    }
  });
});

describe('ANY_LAYOUT_EVENT', () => {
  it("reads the id and status of every format's event", () => {
    for (const dir of [V3, V2, V1]) expect(groups(ANY_LAYOUT_EVENT, `${dir}/status/${EVENT}`)).toEqual([ID, 'paused']);
    expect(groups(ANY_LAYOUT_EVENT, `${V3}/status/20261129T211500123Z-my-laptop-resolved`)).toEqual([ID, 'resolved']);
    expect(groups(ANY_LAYOUT_EVENT, `${V3}/status/20261129T211500123Z--active`)).toEqual([ID, 'active']);
  });

  it('takes any lowercase word for the status, as publish messages name what they see', () => {
    expect(groups(ANY_LAYOUT_EVENT, `${V3}/status/20261129T211500123Z-laptop-bogus`)).toEqual([ID, 'bogus']);
  });

  it('matches no name without an event shape', () => {
    for (const name of ['20261129T211500123Z-paused', '-laptop-paused', '20261129T211500123Z-laptop-Paused', '20261129T211500123Z-laptop-', '20261129T211500123Z-laptop-paused2', 'stamp-w-paused\n']) {
      expect(groups(ANY_LAYOUT_EVENT, `${V3}/status/${name}`)).toBeNull();
    }
    expect(groups(ANY_LAYOUT_EVENT, `capsules/${ID}/status/${EVENT}`)).toBeNull();
  });
});

describe('ANY_LAYOUT_TOMBSTONE', () => {
  it('reads the id of a tombstone below one to three folders of any name', () => {
    for (const path of [`retired/2026-11-29/${ID}`, `retired/2026/11/29/${ID}`, `retired/x/${ID}`]) expect(groups(ANY_LAYOUT_TOMBSTONE, path)).toEqual([ID]);
  });

  it('matches no tombstone without a folder, none four folders down and no capsule path', () => {
    for (const path of [`retired/${ID}`, `retired/a/b/c/d/${ID}`, `retired/2026-11-29/`, `${V3}/capsule.md`, `x/retired/2026-11-29/${ID}`]) {
      expect(groups(ANY_LAYOUT_TOMBSTONE, path)).toBeNull();
    }
  });
});
