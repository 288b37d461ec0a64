#!/usr/bin/env node
"use strict";

// lib/cli/launcher.ts
var import_node_path2 = require("node:path");

// lib/launch/code-cache.ts
var import_node_fs = require("node:fs");
var import_node_path = require("node:path");
var import_node_vm = require("node:vm");
function runWithCodeCache(bundle, env, variant, takenPaths = () => []) {
  const source = (0, import_node_fs.readFileSync)(bundle, "utf8");
  const cacheFile = cachePath(source, bundle, env, variant);
  let cached;
  try {
    cached = cacheFile ? (0, import_node_fs.readFileSync)(cacheFile) : void 0;
  } catch {
    cached = void 0;
  }
  let script;
  try {
    script = new import_node_vm.Script(wrap(source), { filename: bundle, cachedData: cached });
  } catch {
    require(bundle);
    return;
  }
  if (cacheFile) {
    const fresh = cached === void 0 || script.cachedDataRejected;
    const covered = fresh ? [] : readCovered(cacheFile);
    process.once("exit", (code) => {
      if (variant !== void 0 && code !== 0) return;
      const taken = takenPaths();
      if (fresh || taken.some((p) => !covered.includes(p))) saveCache(cacheFile, script, [.../* @__PURE__ */ new Set([...covered, ...taken])].sort());
    });
  }
  const module2 = { exports: {}, filename: bundle };
  const fn = script.runInThisContext();
  fn(module2.exports, requireFrom(bundle), module2, bundle, (0, import_node_path.dirname)(bundle));
}
function requireFrom(bundle) {
  const own = module.constructor.createRequire;
  return typeof own === "function" ? own(bundle) : require("node:module").createRequire(bundle);
}
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname) {${source.replace(/^#!.*/, "")}
})`;
}
function cachePath(source, bundle, env, variant) {
  const base = env.CAPSULE_CODE_CACHE_DIR || env.CLAUDE_PLUGIN_DATA || (env.XDG_CACHE_HOME ? (0, import_node_path.join)(env.XDG_CACHE_HOME, "git-capsule") : env.HOME ? (0, import_node_path.join)(env.HOME, ".cache", "git-capsule") : null);
  if (!base || env.CAPSULE_CODE_CACHE === "0") return null;
  const declared = /^\/\/ capsule-bundle-hash: ([0-9a-f]{20})$/m.exec(source.slice(0, 200))?.[1];
  const stat = declared === void 0 ? null : (0, import_node_fs.statSync)(bundle, { throwIfNoEntry: false });
  const hash = declared !== void 0 && stat ? keyHash(`${declared}:${stat.size}:${stat.mtimeMs}:${process.version}:${process.arch}`) : sourceHash(source);
  return (0, import_node_path.join)(base, "code-cache", `${(0, import_node_path.basename)(bundle, ".js")}${variant ? `-${variant}` : ""}-${hash}.v8`);
}
function keyHash(key) {
  let out = "";
  for (const seed of [2166136261, 16777619, 1540483477]) {
    let h = seed >>> 0;
    for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 16777619) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out.slice(0, 20);
}
function sourceHash(source) {
  const { createHash } = require("node:crypto");
  return createHash("sha1").update(source).update(process.version).update(process.arch).digest("hex").slice(0, 20);
}
function readCovered(file) {
  try {
    const paths = JSON.parse((0, import_node_fs.readFileSync)(`${file}.paths`, "utf8"));
    return Array.isArray(paths) ? paths.filter((p) => typeof p === "string") : [];
  } catch {
    return [];
  }
}
var KEPT_BUILDS = 3;
function dropOldBuilds(file) {
  const dir = (0, import_node_path.dirname)(file);
  const prefix = `${(0, import_node_path.basename)(file).replace(/-[0-9a-f]{20}\.v8$/, "")}-`;
  const hashes = /* @__PURE__ */ new Set();
  for (const name of (0, import_node_fs.readdirSync)(dir)) {
    const m = name.startsWith(prefix) ? /^([0-9a-f]{20})\.v8(\.paths)?$/.exec(name.slice(prefix.length)) : null;
    if (m && `${prefix}${m[1]}.v8` !== (0, import_node_path.basename)(file)) hashes.add(m[1]);
  }
  const age = (hash) => (0, import_node_fs.statSync)((0, import_node_path.join)(dir, `${prefix}${hash}.v8`), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const older = [...hashes].map((hash) => ({ hash, at: age(hash) })).sort((a, b) => b.at - a.at).slice(KEPT_BUILDS - 1);
  for (const { hash } of older) for (const name of [`${prefix}${hash}.v8`, `${prefix}${hash}.v8.paths`]) (0, import_node_fs.rmSync)((0, import_node_path.join)(dir, name), { force: true });
}
function saveCache(file, script, covered) {
  try {
    (0, import_node_fs.mkdirSync)((0, import_node_path.dirname)(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    (0, import_node_fs.writeFileSync)(temp, script.createCachedData());
    (0, import_node_fs.writeFileSync)(`${temp}.paths`, JSON.stringify(covered));
    (0, import_node_fs.renameSync)(temp, file);
    (0, import_node_fs.renameSync)(`${temp}.paths`, `${file}.paths`);
    dropOldBuilds(file);
  } catch {
  }
}

// lib/cli/launcher.ts
var verb = process.argv[2];
try {
  runWithCodeCache((0, import_node_path2.join)(__dirname, "impl", "git-capsule.js"), process.env, verb !== void 0 && /^[a-z][a-z-]{0,30}$/.test(verb) ? verb : void 0);
} catch (err) {
  process.stderr.write(`git capsule: [INTERNAL] cannot load ${(0, import_node_path2.join)(__dirname, "impl", "git-capsule.js")}: ${err instanceof Error ? err.message : String(err)}
`);
  process.exitCode = 1;
}
