import { locateBudget } from '../local-state/locate-project';
import { clientModel } from '../supervise/client-command';
import type { InputFormat } from '../supervise/input-lines';
import { resolveResetPoint } from '../supervise/reset-point';
import type { SupervisePlan } from '../supervise/supervise-plan';
import type { SupervisorOptions } from '../supervise/supervisor-state';
import { BudgetWatch } from './budget-watch';
import { ConductorFile } from './conductor-file';

/** Gathers the dry run's plan: the reset point as the budget resolves it now, and the coordination file. Starts no client. */
export async function planSupervisor(opts: {
  argv: string[];
  added: string[];
  options: SupervisorOptions;
  input: { source: string; format: InputFormat };
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<SupervisePlan> {
  const { projectDir, runtimeDir } = locateBudget(opts.cwd, opts.env);
  const conductor = ConductorFile.open({ env: opts.env, cwd: opts.cwd, runtimeDir, pid: process.pid });
  const env = conductor === null ? opts.env : conductor.childEnv(opts.env);
  const model = clientModel(opts.argv);
  const resolution = (await BudgetWatch.open({ cwd: opts.cwd, env, projectDir, runtimeDir })).plan(model);
  return {
    command: opts.argv,
    added: opts.added,
    resetAt: opts.options.resetAt,
    resetPoint: resolveResetPoint(opts.options.resetAt, resolution),
    model,
    continuation: opts.options.continuation,
    maxResets: opts.options.maxResets,
    capsuleWaitMs: opts.options.capsuleWaitMs,
    coordination: conductor === null ? null : { path: conductor.path, declared: conductor.declared },
    input: opts.input,
  };
}
