// Answers made during one turn of the event loop, written together once the turn's I/O callbacks have
// run (setImmediate) instead of each as soon as it is ready. It never changes an answer or the order of
// answers; it only moves each write to the end of the turn it was made in.

import type { ServerResponse } from 'node:http';

import type { HttpAnswer } from './exchange.ts';
import { atTurnEnd } from '../next-turn.ts';

/** Writes one answer. */
export type AnswerWriter = (res: ServerResponse, answer: HttpAnswer) => void;

/**
 * `write`, deferred to the end of the current turn, in the order of the calls. Under load one turn reads
 * many requests: written one by one between their handlers, each answer woke its idle client on its own,
 * which cost the server more than the answer did (see test/bench/NOTES.md, "Answers written together").
 * A `write` that throws does not cost the others their answers: the first throw is rethrown once all are written.
 * Whatever else writes to the same connections must wait for the turn's end too (see answerClientError).
 * @example
 * const send = batchAnswers((res, answer) => writeAnswer(res, answer));
 * send(res, { status: 200, headers: {}, body: Buffer.from('{}') }); // written once this turn's callbacks are done
 */
export function batchAnswers(write: AnswerWriter): AnswerWriter {
  // Two parallel lists rather than a pair per answer: nothing is allocated per answer but the slots.
  let responses: ServerResponse[] = [];
  let answers: HttpAnswer[] = [];
  const flush = (): void => {
    const due = responses;
    const dueAnswers = answers;
    responses = [];
    answers = [];
    let failure: { error: unknown } | undefined;
    for (let index = 0; index < due.length; index++) {
      try {
        write(due[index] as ServerResponse, dueAnswers[index] as HttpAnswer);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  };
  return (res, answer) => {
    if (responses.push(res) === 1) atTurnEnd(flush);
    answers.push(answer);
  };
}
