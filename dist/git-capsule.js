#!/usr/bin/env node
"use strict";
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

// lib/cli/main.ts
var main_exports = {};
__export(main_exports, {
  main: () => main,
  processContext: () => processContext
});
module.exports = __toCommonJS(main_exports);
var import_node_fs = require("node:fs");

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

// lib/cli/context.ts
var EXIT = { OK: 0, FAILURE: 1, USAGE: 2 };

// lib/cli/verbs.ts
var VERBS = {};

// lib/cli/help.ts
var VERSION = true ? "0.1.0" : "dev";
async function renderHelp() {
  const lines = ["usage: git capsule <verb> [options]   (also: git-capsule <verb>)", "", "verbs:"];
  for (const name of Object.keys(VERBS).sort()) {
    const verb = await VERBS[name]();
    lines.push(`  ${name.padEnd(12)} ${verb.summary}`);
  }
  lines.push("", "Run 'git capsule <verb> --help' for a verb's options. Exit codes: 0 ok, 1 failure, 2 usage.");
  return lines.join("\n") + "\n";
}

// lib/cli/main.ts
async function main(argv, ctx) {
  const [verbName, ...rest] = argv;
  if (verbName === void 0 || verbName === "--help" || verbName === "-h" || verbName === "help") {
    const target = verbName === "help" ? rest[0] : void 0;
    if (target !== void 0 && VERBS[target]) return printVerbHelp(target, ctx);
    ctx.stdout(await renderHelp());
    return verbName === void 0 ? EXIT.USAGE : EXIT.OK;
  }
  if (verbName === "--version" || verbName === "-V") {
    ctx.stdout(`git-capsule ${VERSION}
`);
    return EXIT.OK;
  }
  const load = VERBS[verbName];
  if (!load) {
    ctx.stderr(`git capsule: '${verbName}' is not a verb. See 'git capsule --help'.
`);
    return EXIT.USAGE;
  }
  if (rest.includes("--help") || rest.includes("-h")) return printVerbHelp(verbName, ctx);
  try {
    return await (await load()).run(rest, ctx);
  } catch (err) {
    const code = isCapsuleError(err) ? err.code : "INTERNAL";
    const message = err instanceof Error ? err.message : String(err);
    ctx.stderr(`git capsule ${verbName}: [${code}] ${message}
`);
    if (ctx.env.CAPSULE_DEBUG && err instanceof Error && err.stack) ctx.stderr(`${err.stack}
`);
    return code === "USAGE" ? EXIT.USAGE : EXIT.FAILURE;
  }
}
async function printVerbHelp(name, ctx) {
  const verb = await VERBS[name]();
  ctx.stdout(`${verb.summary}

${verb.usage.trimEnd()}
`);
  return EXIT.OK;
}
function processContext() {
  return {
    cwd: process.cwd(),
    env: process.env,
    now: () => /* @__PURE__ */ new Date(),
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    readStdin: async () => (0, import_node_fs.readFileSync)(0, "utf8"),
    isTTY: Boolean(process.stderr.isTTY)
  };
}
if (require.main === module) {
  main(process.argv.slice(2), processContext()).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`git capsule: [INTERNAL] ${err instanceof Error ? err.message : String(err)}
`);
      process.exitCode = EXIT.FAILURE;
    }
  );
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  main,
  processContext
});
