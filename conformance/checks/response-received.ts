import { failed, passed, type Check } from './check.ts';

export const responseReceived: Check = {
  id: 'response-received',
  severity: 'error',
  title: 'Every request gets an HTTP response',
  proves: 'the server answers every request of the suite, odd ones included, within --timeout instead of dropping the connection',
  level: 'behaviour',
  judge: (exchanges) =>
    exchanges.map((exchange) =>
      exchange.transportError === undefined
        ? passed(exchange)
        : failed({
            exchange,
            message: `${exchange.label}: no HTTP response arrived (${exchange.transportError}).`,
            expected: 'an HTTP response',
            got: exchange.transportError,
          }),
    ),
};
