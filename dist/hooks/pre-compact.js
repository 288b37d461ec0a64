#!/usr/bin/env node
"use strict";

// lib/hooks/hook-process.ts
var import_node_fs3 = require("node:fs");

// lib/errors/capsule-error.ts
var CapsuleError = class extends Error {
  code;
  data;
  constructor(code, message, data = {}, options = {}) {
    super(message, options.cause === void 0 ? void 0 : { cause: options.cause });
    this.name = "CapsuleError";
    this.code = code;
    this.data = data;
  }
};
function isCapsuleError(err, code) {
  return err instanceof CapsuleError && (code === void 0 || err.code === code);
}

// lib/hooks/error-log.ts
var import_node_fs = require("node:fs");
var import_node_path = require("node:path");
var ERROR_LOG_FILE = "errors.log";
function appendErrorLog(dir, entry) {
  if (dir === null) return null;
  const line = `${entry.code} ${entry.now.toISOString()} ${entry.event} ${oneLine(entry.message)}
`;
  try {
    (0, import_node_fs.mkdirSync)(dir, { recursive: true });
    const path = (0, import_node_path.join)(dir, ERROR_LOG_FILE);
    (0, import_node_fs.appendFileSync)(path, line);
    return path;
  } catch {
    return null;
  }
}
function oneLine(text, max = 400) {
  const flat = text.replace(/[\r\n\u2028\u2029\u0085]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}\u2026` : flat;
}

// lib/hooks/hook-events.ts
var HOOK_EVENTS = {
  SessionStart: { file: "session-start", hostTimeoutSec: 10, budgetMs: 7e3 },
  Stop: { file: "stop", hostTimeoutSec: 10, budgetMs: 7e3 },
  PreCompact: { file: "pre-compact", hostTimeoutSec: 10, budgetMs: 7e3 },
  UserPromptSubmit: { file: "user-prompt-submit", hostTimeoutSec: 5, budgetMs: 3e3 },
  // The host cuts SessionEnd short (CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS); the last autosave must land in ~1 s.
  SessionEnd: { file: "session-end", hostTimeoutSec: 2, budgetMs: 1e3 }
};

// lib/hooks/hook-input.ts
var COMMON = {
  session_id: "string?",
  transcript_path: "string?",
  cwd: "string",
  hook_event_name: "string"
};
var EXTRA = {
  SessionStart: { source: "string" },
  Stop: { last_assistant_message: "string|null?", stop_hook_active: "boolean?" },
  PreCompact: { trigger: "string", custom_instructions: "string|null?" },
  UserPromptSubmit: { prompt: "string" },
  SessionEnd: { reason: "string?" }
};
function checkHookInput(event, raw) {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { ok: false, field: "(payload)", expected: "a JSON object", received: describe(raw) };
  }
  const record = raw;
  for (const [field, kind] of Object.entries({ ...COMMON, ...EXTRA[event] })) {
    if (!fits(record[field], kind)) return { ok: false, field, expected: kind, received: describe(record[field]) };
  }
  if (record.session_id === "") return { ok: false, field: "session_id", expected: "a non-empty string", received: "an empty string" };
  return { ok: true, input: record };
}
function fits(value, kind) {
  if (value === void 0) return kind.endsWith("?");
  if (value === null) return kind.includes("null");
  return typeof value === kind.replace(/\|null|\?/g, "");
}
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

// lib/hooks/hook-output.ts
var CONTEXT_EVENTS = /* @__PURE__ */ new Set(["SessionStart", "UserPromptSubmit"]);
function renderHookOutput(event, answer) {
  if (!answer) return "";
  if (answer.plainText !== void 0 && event === "PreCompact" && !answer.systemMessage) return `${answer.plainText}
`;
  const envelope = {};
  if (answer.additionalContext && CONTEXT_EVENTS.has(event)) {
    envelope.hookSpecificOutput = { hookEventName: event, additionalContext: answer.additionalContext };
  }
  if (answer.block && event === "Stop") {
    envelope.decision = "block";
    envelope.reason = answer.block.reason;
  }
  if (answer.systemMessage) envelope.systemMessage = answer.systemMessage;
  return Object.keys(envelope).length === 0 ? "" : `${JSON.stringify(envelope)}
`;
}

// lib/hooks/runtime-dir.ts
var import_node_fs2 = require("node:fs");
var import_node_path2 = require("node:path");
function locateRuntime(cwd, env) {
  const gitDir = env.GIT_DIR ? (0, import_node_path2.resolve)(cwd, env.GIT_DIR) : findGitDir((0, import_node_path2.resolve)(cwd));
  const commonDir = gitDir === null ? null : readCommonDir(gitDir);
  const override = env.CAPSULE_STATE_DIR;
  const runtimeDir = override ? (0, import_node_path2.resolve)(override) : commonDir === null ? null : (0, import_node_path2.join)(commonDir, "capsule");
  return { gitDir, commonDir, runtimeDir };
}
function findGitDir(start) {
  for (let dir = start; ; dir = (0, import_node_path2.dirname)(dir)) {
    const dotGit = (0, import_node_path2.join)(dir, ".git");
    const found = gitDirAt(dotGit);
    if (found !== null) return found;
    if ((0, import_node_path2.dirname)(dir) === dir) return null;
  }
}
function gitDirAt(dotGit) {
  let stat;
  try {
    stat = (0, import_node_fs2.statSync)(dotGit);
  } catch {
    return null;
  }
  if (stat.isDirectory()) return dotGit;
  if (!stat.isFile()) return null;
  const match = /^gitdir:\s*(.+?)\s*$/m.exec((0, import_node_fs2.readFileSync)(dotGit, "utf8"));
  return match?.[1] ? (0, import_node_path2.resolve)((0, import_node_path2.dirname)(dotGit), match[1]) : null;
}
function readCommonDir(gitDir) {
  const pointer = (0, import_node_path2.join)(gitDir, "commondir");
  if (!(0, import_node_fs2.existsSync)(pointer)) return gitDir;
  return (0, import_node_path2.resolve)(gitDir, (0, import_node_fs2.readFileSync)(pointer, "utf8").trim());
}

// lib/hooks/run-hook.ts
var SILENT_CODES = /* @__PURE__ */ new Set(["NOT_A_REPO"]);
async function runHook(spec, io) {
  if (io.env.CAPSULE_DISABLED !== void 0) return { stdout: "" };
  const budgetMs = io.budgetMs ?? HOOK_EVENTS[spec.event].budgetMs;
  let logDir = locateRuntime(io.env.CLAUDE_PROJECT_DIR || io.cwd, io.env).runtimeDir ?? io.env.CLAUDE_PLUGIN_DATA ?? null;
  const failOpen = (code, message) => {
    const logPath = appendErrorLog(logDir, { code, now: io.now(), event: spec.event, message });
    const where = logPath ? `; see ${logPath}` : "";
    const systemMessage = oneLine(`capsule: ${spec.event} hook skipped [${code}] ${message}${where}`, 300);
    return { stdout: renderHookOutput(spec.event, { systemMessage }), failCode: code };
  };
  let timer;
  const timeout = new Promise((resolve2) => {
    timer = setTimeout(() => resolve2("timeout"), budgetMs);
  });
  const work = async () => {
    let raw;
    try {
      raw = JSON.parse(await io.readStdin());
    } catch (err) {
      return failOpen("HOOK_INPUT_NOT_JSON", `stdin is not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const checked = checkHookInput(spec.event, raw);
    if (!checked.ok) {
      return failOpen("HOOK_INPUT_INVALID", `field ${checked.field}: expected ${checked.expected}, received ${checked.received}`);
    }
    const projectDir = io.env.CLAUDE_PROJECT_DIR || checked.input.cwd;
    const location = locateRuntime(projectDir, io.env);
    if (location.gitDir === null || location.commonDir === null || location.runtimeDir === null) return { stdout: "" };
    logDir = location.runtimeDir;
    const ctx = {
      env: io.env,
      now: io.now,
      projectDir,
      gitDir: location.gitDir,
      commonDir: location.commonDir,
      runtimeDir: location.runtimeDir,
      warn: (code, message) => void appendErrorLog(logDir, { code, now: io.now(), event: spec.event, message })
    };
    try {
      return { stdout: renderHookOutput(spec.event, await spec.handle(checked.input, ctx)) };
    } catch (err) {
      const code = isCapsuleError(err) ? err.code : "HOOK_INTERNAL";
      if (SILENT_CODES.has(code)) return { stdout: "" };
      return failOpen(code, err instanceof Error ? err.message : String(err));
    }
  };
  try {
    const result = await Promise.race([work(), timeout]);
    return result === "timeout" ? failOpen("HOOK_TIMEOUT", `gave up after its ${budgetMs} ms budget`) : result;
  } catch (err) {
    return failOpen("HOOK_INTERNAL", err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
  }
}

// lib/hooks/hook-process.ts
function runHookProcess(spec) {
  if (process.env.CAPSULE_DISABLED !== void 0) return;
  const bail = () => process.exit(0);
  process.on("uncaughtException", bail);
  process.on("unhandledRejection", bail);
  runHook(spec, { readStdin, env: process.env, now: () => /* @__PURE__ */ new Date(), cwd: process.cwd() }).then(
    (outcome) => {
      if (outcome.stdout) (0, import_node_fs3.writeSync)(1, outcome.stdout);
      process.exit(0);
    },
    bail
  );
}
function readStdin() {
  return new Promise((resolve2, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk) => text += chunk);
    process.stdin.on("end", () => resolve2(text));
    process.stdin.on("error", reject);
  });
}

// lib/hooks/entry-pre-compact.ts
runHookProcess({ event: "PreCompact", handle: async () => void 0 });
