// A command started through npm (`npm run serve`, `npm start`, `npm run sweep`, `npm run
// sweep:worker`) whose parent process goes stops as at SIGTERM, instead of running on unseen.
// npm runs a script through `sh -c`, and on a kill it signals that shell, which does not pass the
// signal on (dash does not exec the command): the shell dies, the command is left with no parent,
// still holding its port and its data folder. Only under npm (its npm_lifecycle_event): a command
// started with node itself is the user's to place (`nohup node ... &`, a service manager) and runs
// on when its shell goes; started by PID 0 or 1 (a container's first process) it has no parent to
// lose.

/** Checks the parent process every second; once it is gone, says so and sends this process SIGTERM. */
export function stopWhenOrphaned(who: string): void {
  const parent = process.ppid;
  if (parent <= 1 || process.env.npm_lifecycle_event === undefined) return;
  const t = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(t);
    console.log(`${who} ${process.pid}: its parent process ${parent} is gone; stopping`);
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  t.unref();
}
