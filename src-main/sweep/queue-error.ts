// A queue that cannot be used (a malformed --queue URL, an unreachable Redis): a usage error of
// the sweep CLI, kept apart from queue.ts so the CLI names it without loading BullMQ.
export class QueueError extends Error {}
