// Running `npm run sweep` / `npm run sweep:worker` (src-main/sweep-cli.ts) as child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './fixture.ts';

const CLI = path.join(ROOT, 'src-main/sweep-cli.ts');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; done: Promise<CliRun>; stdout: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stdout: () => stdout };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return startCli(args, env).done;
}
