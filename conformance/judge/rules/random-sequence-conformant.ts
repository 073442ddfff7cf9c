import { failed, passed, type Rule, type Judgement } from '../rule.ts';

export const randomSequenceConformant: Rule = {
  id: 'random-sequence-conformant',
  severity: 'error',
  title: 'Random sequences of requests stay within the contract',
  proves:
    'with `--random-steps N`, seeded random sequences of reads and deletes over the given project, tokens and keys get, at every step, an answer the contract model allows after what the run has seen; a failure is shrunk to the shortest sequence and printed as curl lines with the deletions it needs and the seed (off by default: not checked without it)',
  level: 'behaviour',
  steps: ['random-step'],
  judge: (exchanges) =>
    exchanges.flatMap((exchange): Judgement[] => {
      if (!exchange.response) return [];
      const failure = exchange.randomFailure;
      if (!failure) return [passed(exchange)];
      const [first, ...more] = failure.verdicts;
      const shrunk = failure.sequence.length < failure.firstLength ? ` (shrunk from ${failure.firstLength})` : '';
      return [
        failed({
          exchange,
          message: `a random sequence of ${failure.sequence.length} request(s)${shrunk} broke the contract at its last one: ${exchange.label}; ${first!.message}${more.length > 0 ? ` Also: ${more.map((v) => v.message).join(' ')}` : ''}`,
          expected: first!.expected,
          got: first!.got,
          ...(first!.schemaPointer !== undefined ? { schemaPointer: first!.schemaPointer } : {}),
          ...(first!.instancePointer !== undefined ? { instancePointer: first!.instancePointer } : {}),
          sequence: { seed: failure.seed, setup: failure.setup, steps: failure.sequence, shrunkFrom: failure.firstLength },
        }),
      ];
    }),
};
