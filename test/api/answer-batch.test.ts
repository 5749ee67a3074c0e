// The answers of one event-loop turn leave together at its end (answer-batch.ts): none is sent
// while the turn runs, all of them in the order handed in, with their bytes untouched; the next
// turn's answers go out at that turn's end.
import { describe, expect, it } from 'vitest';
import { AnswerBatch } from '../../src-main/api/answer-batch.ts';

const nextCheckPhase = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('AnswerBatch', () => {
  it("holds a turn's answers until the turn's end, then sends them all in order", async () => {
    const batch = new AnswerBatch();
    const sent: Array<[Error | null, unknown]> = [];
    const done = (err: Error | null, payload: unknown): void => void sent.push([err, payload]);
    const payloads = ['{"code":0}', Buffer.from('{"code":1}'), '{"code":2}'];
    for (const p of payloads) batch.add(done, p);
    expect(sent).toEqual([]);
    expect(batch.waiting).toBe(3);
    await nextCheckPhase();
    expect(sent).toEqual(payloads.map((p) => [null, p]));
    expect(sent[1][1]).toBe(payloads[1]);
    expect(batch.waiting).toBe(0);
  });

  it("sends a later turn's answers at that turn's end", async () => {
    const batch = new AnswerBatch();
    const sent: string[] = [];
    batch.add((_e, p) => sent.push(p as string), 'a');
    await nextCheckPhase();
    batch.add((_e, p) => sent.push(p as string), 'b');
    expect(sent).toEqual(['a']);
    await nextCheckPhase();
    expect(sent).toEqual(['a', 'b']);
  });
});
