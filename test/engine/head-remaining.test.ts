// OrderBook.headRemaining: the lots left of the order a taker at its price meets first (the first
// order of its side's best level, of the account, side and price named), -1 for any other order.
import { describe, expect, it } from 'vitest';
import { createBook, RecordingSink } from '../../src-main/engine/index.ts';

const A = 11;
const B = 12;

describe('OrderBook.headRemaining', () => {
  it('answers for the first order of the best level only, of the account, side and price named', () => {
    const book = createBook({ symbol: 'T', bandPpm: 0 }, new RecordingSink());
    book.placeLimit(1, A, 2, 100, 10, 1);
    book.placeLimit(2, B, 2, 100, 5, 1);
    book.placeLimit(3, A, 2, 101, 7, 1);
    book.placeLimit(4, A, 1, 99, 6, 1);
    book.placeLimit(5, A, 1, 98, 6, 1);
    expect(book.headRemaining(1, A, 2, 100)).toBe(10);
    expect(book.headRemaining(4, A, 1, 99)).toBe(6);
    expect(book.headRemaining(2, B, 2, 100)).toBe(-1); // second in its level
    expect(book.headRemaining(3, A, 2, 101)).toBe(-1); // first of a level behind the best
    expect(book.headRemaining(5, A, 1, 98)).toBe(-1);
    expect(book.headRemaining(1, B, 2, 100)).toBe(-1); // another account's
    expect(book.headRemaining(1, A, 1, 100)).toBe(-1); // the other side
    expect(book.headRemaining(1, A, 2, 101)).toBe(-1); // another price
    expect(book.headRemaining(99, A, 2, 100)).toBe(-1); // no such order
    expect(book.headRemaining(-1, A, 2, 100)).toBe(-1);
  });

  it('follows the queue as takers and cancels change it', () => {
    const book = createBook({ symbol: 'T', bandPpm: 0 }, new RecordingSink());
    book.placeLimit(1, A, 2, 100, 10, 1);
    book.placeLimit(2, A, 2, 100, 5, 1);
    book.placeLimit(3, B, 2, 100, 5, 1);
    book.placeLimit(4, B, 1, 100, 12, 2); // takes all of 1 and 2 of 2: order 2 is the head now
    expect(book.headRemaining(1, A, 2, 100)).toBe(-1);
    expect(book.headRemaining(2, A, 2, 100)).toBe(3);
    book.cancel(2); // order 3 is the head
    expect(book.headRemaining(3, B, 2, 100)).toBe(5);
    book.placeLimit(5, A, 2, 99, 1, 1); // a better level: 3 is no longer met first
    expect(book.headRemaining(3, B, 2, 100)).toBe(-1);
    expect(book.headRemaining(5, A, 2, 99)).toBe(1);
  });
});
